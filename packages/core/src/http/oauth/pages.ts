import type { StoreGrant } from "../../services/oauth/grants.js"
import type { ConnectableStore } from "../../services/oauth/sessions.js"
import { SCOPE_DESCRIPTIONS } from "../../domain/credentials/scope-descriptions.js"
import type { Scope } from "../../domain/credentials/scopes.js"

import { escapeHtml } from "../browser/html.js"

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.75rem 0 .25rem}input[type=email],input[type=password],select{width:100%;padding:.4rem}
fieldset{margin:1rem 0;border:1px solid #ccc}fieldset label{display:flex;gap:.5rem;align-items:center;margin:.35rem 0}
button{margin:1rem .5rem 0 0;padding:.5rem 1.25rem}.unverified{background:#fde68a;color:#7c2d12;padding:.1rem .4rem;border-radius:.25rem;font-size:.85rem}
.error{color:#b91c1c}.muted{color:#555;font-size:.9rem}.service{color:#555;font-size:.9rem;margin:0}
.scope{display:flex;flex-direction:column}.new{background:#dbeafe;color:#1e3a8a;padding:0 .35rem;border-radius:.25rem;font-size:.8rem}.held{color:#555;font-size:.8rem}.scope code{color:#555;font-size:.8rem}.note{background:#fef3c7;padding:.5rem .75rem;border-radius:.25rem;font-size:.9rem}`

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`

/** Hidden fields that every consent-screen form posts back. */
interface FormState {
  readonly csrfToken: string
  /** The authorization request's query string, checked again on every post. */
  readonly authorizationRequest: string
  /** Where the forms post: the authorization endpoint's path, the base path included. */
  readonly formAction: string
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`

const formStart = (action: "sign_in" | "consent", state: FormState) =>
  `<form method="post" action="${escapeHtml(state.formAction)}">${hidden("action", action)}${hidden("csrf_token", state.csrfToken)}${
    hidden("authorization_request", state.authorizationRequest)
  }`

/** The client as the consent screen names it. */
export interface ClientDisplay {
  readonly name: string
  readonly verified: boolean
  /** Where the person is sent back to, shown so a look-alike name cannot hide it. */
  readonly redirectHost: string
  /** The host publishing the client's metadata document, for a client known by one. */
  readonly documentHost: string | undefined
}

// The service's name heads every page, so a person always knows who is asking for the password.
const SERVICE_NAME = "signcraft"

// A client known by its metadata document is named with the host that publishes it: whoever
// controls that host vouches for the name. A self-registered client is vouched for by nobody.
const clientHeading = (client: ClientDisplay) =>
  `<p class="service">${SERVICE_NAME} · connect an app</p>` +
  (client.documentHost !== undefined
    ? `<h1>${escapeHtml(client.name)}</h1><p class="note">This app is described by <strong>${
      escapeHtml(client.documentHost)
    }</strong>, which publishes its details. Continue only if you started this connection and trust ${
      escapeHtml(client.documentHost)
    }.</p>`
    : `<h1>${escapeHtml(client.name)}${client.verified ? "" : ` <span class="unverified">Unverified</span>`}</h1>` +
      (client.verified
        ? ""
        : `<p class="note">Unverified: this app registered itself, and ${SERVICE_NAME} has not checked who runs it or whether its name is true. Continue only if you started this connection and trust the app.</p>`))

/** The sign-in form: `Email`, `Password`, `Sign in`, the labels docs/agent.md tells people to look for. */
export const signInPage = (client: ClientDisplay, state: FormState, error?: string): string =>
  page(
    `Sign in to ${SERVICE_NAME}`,
    `${clientHeading(client)}<p>Sign in to ${SERVICE_NAME} to connect this app to one of your Stores. It will be sent back to <strong>${
      escapeHtml(client.redirectHost)
    }</strong>.</p>
${formStart("sign_in", state)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
${error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(error)}</p>`}
<button type="submit">Sign in</button></form>`
  )

// Whether a requested permission is new to this client, or which of the person's Stores it
// already holds it on: a client asking for more keeps what it had (incremental consent).
const scopeStanding = (scope: Scope, stores: ReadonlyArray<ConnectableStore>, granted: ReadonlyArray<StoreGrant>): string => {
  const holding = stores.filter((s) => granted.some((g) => g.storeId === s.id && g.scopes.includes(scope)))
  if (holding.length === 0) return granted.length === 0 ? "" : `<span class="new">New</span>`
  return stores.length === 1
    ? `<span class="held">Already granted</span>`
    : `<span class="held">Already granted on ${escapeHtml(holding.map((s) => s.name).join(", "))}</span>`
}

/**
 * The consent form: the service and the client's name, `Unverified` (explained) for
 * self-registered clients or the host publishing its metadata document, who is signed in, a
 * `Store` choice when the person has several, one checkbox per requested scope with what it
 * allows in plain words (and its name), `New` on those this client does not hold yet when it
 * already has a connection (`granted`), where the person will be sent back to, and
 * `Approve` / `Deny`.
 */
export const consentPage = (
  client: ClientDisplay,
  signedIn: string,
  stores: ReadonlyArray<ConnectableStore>,
  scopes: ReadonlyArray<Scope>,
  state: FormState,
  granted: ReadonlyArray<StoreGrant> = []
): string => {
  const [first] = stores
  const storeField = stores.length > 1
    ? `<label for="store_id">Store</label><select id="store_id" name="store_id">${
      stores.map((s) => `<option value="${s.id}">${escapeHtml(s.name)} (${escapeHtml(s.companyName)})</option>`).join("")
    }</select>`
    : first === undefined
    ? ""
    : `${hidden("store_id", String(first.id))}<p>Store: <strong>${escapeHtml(first.name)}</strong></p>`
  const scopeBoxes = scopes.map((scope) =>
    `<label><input type="checkbox" name="scope" value="${scope}" checked><span class="scope">${
      escapeHtml(SCOPE_DESCRIPTIONS[scope])
    }<code>${scope}</code>${scopeStanding(scope, stores, granted)}</span></label>`
  ).join("")
  const person = `<p class="muted">Signed in as <strong>${escapeHtml(signedIn)}</strong>.</p>`
  const body = first === undefined
    ? `<p class="error">You do not belong to a company with a Store, so there is nothing to connect.</p>
${formStart("consent", state)}<button type="submit" name="decision" value="deny">Deny</button></form>`
    : `<p>This app asks to act on your Store with the permissions below. Untick any you do not want to grant.</p>
${formStart("consent", state)}${storeField}
<fieldset><legend>Permissions</legend>${scopeBoxes}</fieldset>${
      granted.length === 0 ? "" : `<p class="muted">This app is already connected: approving adds the new permissions to what it holds.</p>`
    }
<p class="muted">You will be sent back to ${escapeHtml(client.redirectHost)}.</p>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></form>`
  return page(`Connect an app to ${SERVICE_NAME}`, `${clientHeading(client)}${person}${body}`)
}

/** An authorization error shown to the person instead of being sent to an unvouched-for client. */
export const refusalPage = (client: ClientDisplay, error: string, description: string): string =>
  page(
    `${SERVICE_NAME}: this connection cannot be made`,
    `${clientHeading(client)}<h2>This connection cannot be made</h2>
<p class="error" role="alert">${escapeHtml(description)}</p>
<p class="muted">Error <code>${escapeHtml(error)}</code>. You have not been sent back to ${
      escapeHtml(client.redirectHost)
    }: ${SERVICE_NAME} does not send people to an app it cannot vouch for with an error. Close this page and start again from the app.</p>`
  )

/**
 * An authorization request whose client metadata document cannot be used: shown to the person
 * with the OAuth error, never redirected, since the redirect URI is not known to be the client's.
 */
export const clientDocumentRefusedPage = (error: string, description: string): string =>
  page(
    `${SERVICE_NAME}: this connection cannot be made`,
    `<p class="service">${SERVICE_NAME} · connect an app</p><h1>This connection cannot be made</h1>
<p class="error" role="alert">${escapeHtml(description)}</p>
<p class="muted">Error <code>${escapeHtml(error)}</code>. The app's details could not be read, so you have not been sent back to it. Close this page and start again from the app.</p>`
  )
