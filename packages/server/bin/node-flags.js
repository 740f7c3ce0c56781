// The V8 settings the server runs with. Node sizes the heap for the machine (gigabytes here) and
// collects lazily within it, so under load the server's memory climbs far above what it keeps
// live (about 80 MB); a 256 MB heap and a bounded young generation keep it collected. The young
// generation's semi-spaces are 8 MB on the embedded database, not 4: with order writes gathered
// into batches (a group commit), objects live across a batch, and with 4 MB they were promoted and
// collected as old ones, which cost about a quarter of an order write's CPU (npm run bench,
// order-write, both databases). On PostgreSQL they are 32 MB: every young collection copies the
// requests in flight, so fewer of them cost less, and there the collector was about a seventh of
// an order write's CPU with 8 MB (1.96 s of young collections where 32 MB took 0.83 s, CPU per order
// 10-18 % lower, peak RSS about 215 MB against 165). The embedded server keeps 8 MB: its database's
// memory lives in the same process, 32 MB took it to 392 MB of the 400 MB budget, and its CPU per
// order moved by under 2 %. A flag given in NODE_OPTIONS wins, so an operator can size the heap
// for a heavier deployment.

/** The heap flags to start the server with, less those NODE_OPTIONS already sets. */
export const serverNodeFlags = (nodeOptions = process.env.NODE_OPTIONS ?? "", databaseUrl = process.env.DATABASE_URL ?? "") =>
  [
    ["--max-old-space-size", "256"],
    ["--max-semi-space-size", databaseUrl === "" ? "8" : "32"]
  ].filter(([name]) => !nodeOptions.includes(name)).map(([name, value]) => `${name}=${value}`)
