import { clientAddressContext } from "@signcraft/core"

/** The context an adapter hands the core next to the request (today: the client's address). */
export type HandlerContext = ReturnType<typeof clientAddressContext>

/** A web-standard request handler, as `makeWebHandler` returns; a plain `(Request) => Promise<Response>` fits too. */
export type WebHandler = (request: Request, context?: HandlerContext) => Promise<Response>

/** Calls the handler, naming the client's address when the host knows it (per-IP quotas need it). */
export const serveWeb = (handler: WebHandler, request: Request, clientAddress: string | undefined): Promise<Response> =>
  clientAddress === undefined || clientAddress === ""
    ? handler(request)
    : handler(request, clientAddressContext(clientAddress))
