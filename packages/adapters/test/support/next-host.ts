// A stand-in for a Next.js server run with NEXT_MANUAL_SIG_HANDLE=true: the route module's
// handlers serve one request (which opens the embedded database in argv[2]), then the process
// waits, kept alive as an HTTP server would keep it, until a signal ends it.
import { signcraftNext } from "../../src/index.js"

const dataDir = process.argv[2] ?? ""
const routes = signcraftNext({ dataDir, settings: { environment: "test" } })
const response = await routes.GET(new Request("http://localhost:3000/healthz"))
// Stands in for the host's listener, which keeps the process running until it is stopped.
setInterval(() => {}, 60_000)
process.stdout.write(`ready ${response.status}\n`)
