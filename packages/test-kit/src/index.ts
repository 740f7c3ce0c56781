/**
 * @signcraft/test-kit: the harness every suite starts signcraft with (`startApp`, one
 * `seedStore`) and the databases it runs on. The other helpers are subpaths, imported only by
 * the suites that need them: `/loopback`, `/oauth`, `/agent-clients`, `/receiver`,
 * `/integrator`, `/chromium`, `/clock`, `/attempts`, `/statements`, `/pricing-fixtures`,
 * `/dashboard`, `/dashboard-world`.
 */
export * from "./app.js"
export * from "./databases.js"
