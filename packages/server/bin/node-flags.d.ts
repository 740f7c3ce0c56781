/**
 * The heap flags to start the server with, less those NODE_OPTIONS already sets; `databaseUrl`
 * (DATABASE_URL) chooses the young generation's size.
 */
export declare const serverNodeFlags: (nodeOptions?: string, databaseUrl?: string) => Array<string>
