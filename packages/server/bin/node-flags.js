// The V8 settings the server runs with. Node sizes the heap for the machine (gigabytes here) and
// collects lazily within it, so under load the server's memory climbs far above what it keeps
// live (about 80 MB); a 256 MB heap and small young generation keep it collected. A flag given in
// NODE_OPTIONS wins, so an operator can size the heap for a heavier deployment.
const FLAGS = [
  ["--max-old-space-size", "256"],
  ["--max-semi-space-size", "4"]
]

/** The heap flags to start the server with, less those NODE_OPTIONS already sets. */
export const serverNodeFlags = (nodeOptions = process.env.NODE_OPTIONS ?? "") =>
  FLAGS.filter(([name]) => !nodeOptions.includes(name)).map(([name, value]) => `${name}=${value}`)
