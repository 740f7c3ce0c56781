/** The workspace packages the server runs, as folders of the repository. */
export declare const SERVER_PACKAGES: ReadonlyArray<string>
/** Whether every package's built JavaScript is at least as new as every file and folder it is built from. */
export declare const isBuildFresh: (root: string, packages?: ReadonlyArray<string>) => boolean
