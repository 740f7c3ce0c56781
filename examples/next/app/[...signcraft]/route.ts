// signcraft in a Next.js App Router app: this file is app/[...signcraft]/route.ts.
import { signcraftNext } from "@signcraft/adapters"

// PGlite and the PostgreSQL driver need Node, and every request is dynamic.
export const runtime = "nodejs"
export const dynamic = "force-dynamic"

// Plain strings only: the database opens on the first request (never during `next build`) and
// one instance per database survives `next dev` reloads.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = signcraftNext({
  settings: {
    baseUrl: process.env.BASE_URL ?? "http://localhost:3000", // public links; the route sits at the root
    operatorToken: process.env.OPERATOR_TOKEN
  },
  databaseUrl: process.env.DATABASE_URL,
  databaseSchema: process.env.DATABASE_SCHEMA,
  dataDir: process.env.DATA_DIR ?? ".data/example-next"
})
