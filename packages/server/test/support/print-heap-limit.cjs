// Preloaded by a test: prints the process's V8 heap limit, to show which flags reached it.
const { getHeapStatistics } = require("node:v8")
process.stderr.write(`heap limit ${Math.round(getHeapStatistics().heap_size_limit / 1024 / 1024)} MB\n`)
