/** The heap flags to start the server with, less those NODE_OPTIONS already sets. */
export declare const serverNodeFlags: (nodeOptions?: string) => Array<string>
