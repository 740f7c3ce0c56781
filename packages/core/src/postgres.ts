/** @signcraft/core/postgres: the PostgreSQL storage layer on its own. */
export { layerPostgres, type PostgresOptions } from "./storage/postgres.js"
