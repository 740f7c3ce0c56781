export * from "./headers.js"
export * from "./signature.js"
