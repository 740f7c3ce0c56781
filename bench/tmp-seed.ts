import { seed } from "./seed.js"
const s = await seed(process.argv[2] as string, process.argv[3] as string, "http://127.0.0.1:4903/products")
console.log(JSON.stringify(s))
