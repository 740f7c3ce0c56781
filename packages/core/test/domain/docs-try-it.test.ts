import { describe, expect, it } from "vitest"
import { tryItKeyFor } from "../../src/domain/deployment/docs-try-it.js"

const KEY = "sk_test_0123456789abcdefghijABCDEFGHIJ"

describe("the key /docs fills into its try-it console", () => {
  it("is the given key in development on a loopback base URL", () => {
    for (const baseUrl of ["http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080/signs"]) {
      expect(tryItKeyFor({ environment: "development", baseUrl }, KEY)).toBe(KEY)
    }
  })

  it("is never given outside development", () => {
    expect(tryItKeyFor({ environment: "production", baseUrl: "http://localhost:8080" }, KEY)).toBeUndefined()
    expect(tryItKeyFor({ environment: "test", baseUrl: "http://127.0.0.1:8080" }, KEY)).toBeUndefined()
  })

  it("is never given on a base URL other machines reach", () => {
    expect(tryItKeyFor({ environment: "development", baseUrl: "http://192.168.1.20:8080" }, KEY)).toBeUndefined()
    expect(tryItKeyFor({ environment: "development", baseUrl: "https://signs.example.com" }, KEY)).toBeUndefined()
    expect(tryItKeyFor({ environment: "development", baseUrl: "not a url" }, KEY)).toBeUndefined()
  })
})
