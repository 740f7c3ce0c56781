import type { TestApp } from "./app.js"

/** A browser-like client of the dashboard over a web handler: it keeps cookies and reads forms' tokens. */
export const dashboardClient = (app: TestApp, basePath = "") => {
  const jar = new Map<string, string>()
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair?.indexOf("=") ?? -1
      if (pair === undefined || at <= 0) continue
      const name = pair.slice(0, at)
      const value = pair.slice(at + 1)
      if (/max-age=0/i.test(line) || value === "") jar.delete(name)
      else jar.set(name, value)
    }
    return response
  }
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (jar.size > 0) headers.set("cookie", cookieHeader())
    const response = keep(await app.handler(new Request(`http://127.0.0.1${basePath}${path}`, { ...init, headers, redirect: "manual" })))
    return { status: response.status, headers: response.headers, html: await response.text(), setCookies: response.headers.getSetCookie() }
  }
  /** GET a dashboard path (below the base path). */
  const get = (path: string) => send(path)
  /** POST a form; `csrf_token` is taken from `page` unless given. */
  const post = (path: string, fields: Record<string, string | ReadonlyArray<string>>, headers: Record<string, string> = {}) => {
    const body = new URLSearchParams()
    for (const [name, value] of Object.entries(fields)) for (const item of typeof value === "string" ? [value] : value) body.append(name, item)
    return send(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: body.toString() })
  }
  /** Signs in through the form on `/dashboard`; returns the sign-in answer. */
  const signIn = async (email: string, password: string) => {
    const page = await get("/dashboard")
    return post("/dashboard/sign-in", { csrf_token: csrfOf(page.html), email, password })
  }
  return { get, post, signIn, jar }
}

/** The anti-forgery token in a page's forms. */
export const csrfOf = (html: string): string => {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html)
  if (match?.[1] === undefined) throw new Error("no anti-forgery token on the page")
  return match[1]
}

/** The text of a page with its tags removed and whitespace collapsed, for reading it as a person would. */
export const textOf = (html: string): string =>
  html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&").replace(/&#39;/g, "'").replace(/&quot;/g, "\"")
    .replace(/\s+/g, " ").trim()

/** A company with a Store and a person who can sign in, made through the operator API. */
export const seedMerchant = async (app: TestApp, label = "Acme", currency = "USD") => {
  const company = await app.operator("POST", "/companies", { name: `${label} Ltd` })
  const store = await app.operator("POST", "/stores", { company_id: company.body.id, name: `${label} Signs`, currency })
  const email = `${label.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`
  const password = "correct horse battery staple"
  const person = await app.operator("POST", "/persons", { company_id: company.body.id, email, password })
  if (person.status !== 201) throw new Error(`person not created: ${JSON.stringify(person.body)}`)
  return { companyId: company.body.id as number, storeId: store.body.id as number, email, password }
}
