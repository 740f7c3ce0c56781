/**
 * The introduction of the public reference (`info.description`, CommonMark): what every
 * operation shares, so that the reference alone is enough to call the API.
 */
export const introduction = (baseUrl: string): string =>
  [
    "The v3 API for integrators, and the storefront API the customiser calls from shoppers' browsers.",
    "## Authentication",
    "Send a secret API key as a bearer token: `Authorization: Bearer sk_test_…` (test mode) or `sk_live_…`. " +
    "Keys are created by the merchant (or the operator API) with a set of scopes; each operation names the " +
    "scopes of which the key needs one, and a key without them gets 403 `insufficient_scope` listing " +
    "`required_scopes` and `granted_scopes`. Keys belong on servers: the v3 API sends no CORS headers. " +
    "The storefront operations take no credential.",
    "## Paging",
    "Collections take `limit` (1 to 100, default 20) and answer `pagination.has_more`; when it is true, " +
    "`links.next` is the URL of the next page, to be followed unchanged (its `cursor` is opaque).",
    "## Idempotency",
    "Writes take an `Idempotency-Key` header (required where the operation says so, otherwise optional): " +
    "a retry with the same key and body replays the first answer (`Idempotency-Replay: true`) instead of " +
    "writing twice; the same key with another body answers 409 `idempotency_key_conflict`, and a key whose " +
    "first request is still running answers 409 `idempotency_key_in_flight` with `Retry-After`. Use a new " +
    "key (a UUID) per logical write and keep it across retries of that write.",
    "## Errors",
    "Every error is an RFC 9457 problem document (`application/problem+json`) with a stable `code`: branch " +
    "on `code`, never on `title` or `detail`. `type` links to the code's page, `request_id` names the " +
    "request in the server's logs, and invalid input lists its faults in `errors[]`, each with a JSON " +
    `\`pointer\` (body) or a \`parameter\` (query). Every code is described at [${baseUrl}/docs/problems](${baseUrl}/docs/problems).`,
    "## Rate limits",
    "Each key has a quota per minute (600 by default). Every answer carries `RateLimit-Policy` and " +
    "`RateLimit` (IETF httpapi ratelimit-headers); over the quota the answer is 429 `rate_limited` with " +
    "`Retry-After` in seconds. Retry GETs and writes sent with an `Idempotency-Key` after `Retry-After`, " +
    "with capped exponential backoff and jitter on network failures and 5xx.",
    "## Versioning",
    "The version is in the path: `/api/v3`. Within v3, changes are additive: new operations, new optional " +
    "request members, new response members, new enumeration values and webhook topics. Ignore response " +
    "members you do not know. The previous generation (`/api/v2` and the unversioned routes) answers with " +
    "`Deprecation` and `Sunset` headers (RFC 9745, RFC 8594) and a `Link` to the migration guide, " +
    `[${baseUrl}/docs/migration](${baseUrl}/docs/migration). Webhooks are described at ` +
    `[${baseUrl}/docs/webhooks](${baseUrl}/docs/webhooks).`,
    "## The agent endpoint",
    "Agents connect to the MCP endpoint with OAuth 2.1 tokens, not API keys; its tools, with their scopes and " +
    `hints, are listed at [${baseUrl}/docs/agent](${baseUrl}/docs/agent).`
  ].join("\n\n")
