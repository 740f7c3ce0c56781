// The V8 settings the server runs with. Node sizes the heap for the machine (gigabytes here) and
// collects lazily within it, so under load the server's memory climbs far above what it keeps
// live; a 256 MB heap and a bounded young generation keep it collected. The young generation's
// 8 MB semi-spaces, not 4: with order writes gathered into batches (a group commit), objects live
// across a batch, and with 4 MB they were promoted and collected as old ones, a visible share of
// an order write's CPU. Not larger: 32 MB made order writes on PostgreSQL a little cheaper (fewer
// young collections) but cached pricing reads dearer, and took the embedded server close to its
// 400 MB memory target (measured in bench/RESULTS.md). A flag given in NODE_OPTIONS wins, so an
// operator can size the heap for a heavier deployment.
const FLAGS = [
  ["--max-old-space-size", "256"],
  ["--max-semi-space-size", "8"]
]

/** The heap flags to start the server with, less those NODE_OPTIONS already sets. */
export const serverNodeFlags = (nodeOptions = process.env.NODE_OPTIONS ?? "") =>
  FLAGS.filter(([name]) => !nodeOptions.includes(name)).map(([name, value]) => `${name}=${value}`)
