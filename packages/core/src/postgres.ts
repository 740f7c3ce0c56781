/** @signcraft/core/postgres: the PostgreSQL storage layer on its own. */
export { layerPostgres } from "./storage/postgres.js"
