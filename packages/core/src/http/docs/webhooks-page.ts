import {
  MAX_RETRY_DELAY_MS,
  MIN_ATTEMPTS,
  MIN_RETRY_WINDOW_MS,
  retryCeilingMs
} from "../../domain/webhooks/retry-schedule.js"
import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  signatureHeaders,
  WEBHOOK_NEXT_SIGNATURE_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER
} from "../../domain/webhooks/signature.js"
import { RETRY_AFTER_STATUSES } from "../../domain/webhooks/receiver-answer.js"
import { RESPONSE_EXCERPT_BYTES } from "../../domain/webhooks/delivery-log.js"
import { STANDARD_ID_HEADER, STANDARD_SIGNATURE_HEADER, STANDARD_TIMESTAMP_HEADER, standardSignatureHeaders } from "../../domain/webhooks/standard-signature.js"
import { TEST_EVENT_TOPIC } from "../../domain/webhooks/test-event.js"
import { EVENT_TYPES, type WebhookTopic } from "../../domain/webhooks/topics.js"
import { webhookIdOf } from "../../domain/webhooks/webhook-id.js"
import { OUTBOUND_TIMEOUT_MS as DELIVERY_TIMEOUT_MS, USER_AGENT as DELIVERY_USER_AGENT } from "../../services/outbound/outbound-http.js"
import { code, docPage, escapeHtml, pre, prose } from "./pages.js"


/** What each topic's receiver answers with 200 (docs/webhooks.md, docs/commerce.md). */
const ANSWERS: Readonly<Record<WebhookTopic, string>> = {
  "product:created": `{"external_id": "<your product id>"}`,
  "order:created": `{"ok": true}`,
  "form:submitted": `{"ok": true}`
}

/** Formats a duration the way people read a schedule: `30 s`, `4 min`, `2 h 8 min`. */
export const formatDelay = (ms: number): string => {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`
}

/** The retry ceilings after each failed attempt until they reach the 6-hour cap, from the worker's own schedule. */
export const retryCeilings = (baseMs: number): ReadonlyArray<number> => {
  const ceilings: Array<number> = []
  for (let failed = 1; ceilings.at(-1) !== MAX_RETRY_DELAY_MS && failed <= 64; failed++) {
    ceilings.push(retryCeilingMs(failed, baseMs))
  }
  return ceilings
}

/** The shell (bash + openssl) verification recipe; reads the body from `body.json`. */
export const SHELL_RECIPE = `#!/usr/bin/env bash
# Usage: verify.sh <secret> <x-webhook-timestamp> <x-webhook-signature> < raw-body
set -euo pipefail
secret="$1"; timestamp="$2"; signature="$3"
body_file="$(mktemp)"; trap 'rm -f "$body_file"' EXIT
cat > "$body_file"   # the raw body, byte for byte, before any JSON parsing
[[ "$timestamp" =~ ^[0-9]{1,15}$ ]] || { echo invalid; exit 1; }
now="$(date +%s)"; ts=$((10#$timestamp))   # 10#: leading zeros are not octal
(( now - ts <= ${DEFAULT_WEBHOOK_TOLERANCE_SECONDS} && ts - now <= ${DEFAULT_WEBHOOK_TOLERANCE_SECONDS} )) || { echo invalid; exit 1; }
expected="$( { printf '%s.' "$timestamp"; cat "$body_file"; } \\
  | openssl dgst -sha256 -hmac "$secret" -r | cut -d' ' -f1)"
if [[ "$expected" == "\${signature,,}" ]]; then echo valid; else echo invalid; exit 1; fi
`

/** The Python 3 verification recipe (standard library only). */
export const PYTHON_RECIPE = `import hashlib, hmac, re, time

TOLERANCE_SECONDS = ${DEFAULT_WEBHOOK_TOLERANCE_SECONDS}

def verify_webhook(raw_body: bytes, timestamp: str, signature: str, secret: str) -> bool:
    """raw_body: the request body exactly as received, before any JSON decoding."""
    if not timestamp or not signature or not re.fullmatch(r"[0-9]{1,15}", timestamp):
        return False
    if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), signature.lower().encode())

# In a Flask view, say:
#   ok = verify_webhook(request.get_data(), request.headers.get("${WEBHOOK_TIMESTAMP_HEADER}", ""),
#                       request.headers.get("${WEBHOOK_SIGNATURE_HEADER}", ""), SECRET)
`

/** The TypeScript verification recipe, with the client package's `verifyWebhook`. */
export const TYPESCRIPT_RECIPE = `import { verifyWebhook } from "@signcraft/client"

// Node's http server: read the raw body first, parse JSON only once it is verified.
const chunks: Array<Buffer> = []
for await (const chunk of req) chunks.push(chunk)
const rawBody = Buffer.concat(chunks)
const result = verifyWebhook({ rawBody, headers: req.headers, secret: process.env.WEBHOOK_SECRET ?? "" })
if (!result.ok) {
  res.writeHead(401).end() // result.reason: missing_header | invalid_timestamp | timestamp_out_of_tolerance | signature_mismatch
} else {
  const event = JSON.parse(rawBody.toString("utf8"))
  // …
}

// In a fetch-style handler (Next.js route, Workers, Deno): headers is the Request's Headers.
const body = await request.text()
const verified = verifyWebhook({ rawBody: body, headers: request.headers, secret })
`

/** Verifying a `signature_scheme: "standard"` delivery, with the client or any Standard Webhooks library. */
export const STANDARD_RECIPE = `import { verifyStandardWebhook } from "@signcraft/client"
// or: import { Webhook } from "standardwebhooks"; new Webhook(secret).verify(rawBody, headers) (svix's Webhook alike)

const result = verifyStandardWebhook({ rawBody, headers: req.headers, secret: process.env.WEBHOOK_SECRET ?? "" })
if (!result.ok) res.writeHead(401).end()
`

/** Catching up after an outage with curl: the failed events, then one recover call. */
export const RECOVERY_CURL = `# What did we miss? Failed (or still retrying) events since the outage began, newest first.
curl -s "$SIGNCRAFT_URL/api/v3/events?delivery_status=failed&created_after=2026-03-01T09:00:00Z" \\
  -H "Authorization: Bearer $SIGNCRAFT_API_KEY"

# Send a test event to check the receiver is back (the answer reports its delivery).
curl -s -X POST "$SIGNCRAFT_URL/api/v3/webhook-subscriptions/42/test" -H "Authorization: Bearer $SIGNCRAFT_API_KEY"

# Disabled (410, or five days of failures)? Re-enable it.
curl -s -X PATCH "$SIGNCRAFT_URL/api/v3/webhook-subscriptions/42" -H "Authorization: Bearer $SIGNCRAFT_API_KEY" \\
  -H "Content-Type: application/json" -d '{"status": "active"}'

# One call sends every missed event again, oldest first, each with its own x-webhook-id: 202 {"data": {"recovered": 17}}
curl -s -X POST "$SIGNCRAFT_URL/api/v3/webhook-subscriptions/42/recover" -H "Authorization: Bearer $SIGNCRAFT_API_KEY" \\
  -H "Content-Type: application/json" -d '{"since": "2026-03-01T09:00:00Z"}'

# Or one event to one subscription.
curl -s -X POST "$SIGNCRAFT_URL/api/v3/webhook-subscriptions/42/events/evt_9001/resend" -H "Authorization: Bearer $SIGNCRAFT_API_KEY"
`

/** Catching up after an outage with `@signcraft/client`. */
export const RECOVERY_CLIENT = `import { SigncraftClient } from "@signcraft/client"

const client = new SigncraftClient({ baseUrl: process.env.SIGNCRAFT_URL ?? "", apiKey: process.env.SIGNCRAFT_API_KEY ?? "" })
const since = "2026-03-01T09:00:00Z"

// What did we miss?
for await (const event of client.paginate("/api/v3/events", { delivery_status: "failed", created_after: since })) {
  console.log(event)
}

// Re-enable the subscription if it was disabled, then send every missed event again.
await client.v3.v3Webhooks.patchSubscription({ params: { webhook_id: 42 }, payload: { status: "active" } })
const { body } = await client.v3.v3Webhooks.recover({ params: { webhook_id: 42 }, payload: { since } })
console.log(\`\${body.data.recovered} events queued\`)

// One event again, or a test event.
await client.v3.v3Webhooks.resendEvent({ params: { webhook_id: 42, event_id: "evt_9001" } })
await client.v3.v3Webhooks.sendTestEvent({ params: { webhook_id: 42 } })
`

const EXAMPLE_SECRET = "whsec_example"
const EXAMPLE_STANDARD_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
const EXAMPLE_TIME = new Date("2026-03-01T12:00:05.000Z")

const deliveryHeaders = (topic: string, rawBody: string): string =>
  Object.entries({
    "content-type": "application/json",
    "user-agent": DELIVERY_USER_AGENT,
    "x-webhook-id": webhookIdOf(9001),
    "x-webhook-topic": topic,
    ...signatureHeaders(EXAMPLE_SECRET, rawBody, EXAMPLE_TIME)
  }).map(([name, value]) => `${name}: ${value}`).join("\n")

const standardDelivery = (rawBody: string): string =>
  Object.entries({
    "content-type": "application/json",
    "user-agent": DELIVERY_USER_AGENT,
    "x-webhook-topic": "order:created",
    ...standardSignatureHeaders(EXAMPLE_STANDARD_SECRET, webhookIdOf(9001), rawBody, EXAMPLE_TIME)
  }).map(([name, value]) => `${name}: ${value}`).join("\n")

const standardSection = (): string => {
  const entry = EVENT_TYPES.find((t) => t.topic === "order:created")
  const rawBody = JSON.stringify(entry?.example ?? {})
  return "<h2>Signature schemes</h2><p>A subscription is signed one of two ways, chosen when it is created " +
    "(<code>signature_scheme</code>) and shown on every read; the event-type catalogue describes both.</p><ul>" +
    `<li><code>signcraft</code> (the default): the <code>x-webhook-*</code> headers above.</li>` +
    `<li><code>standard</code>: <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>. ` +
    `${code(STANDARD_ID_HEADER)} is the event's id, ${code(STANDARD_TIMESTAMP_HEADER)} the signing time in Unix seconds, and ` +
    `${code(STANDARD_SIGNATURE_HEADER)} is <code>v1,</code> and the base64 HMAC-SHA256 of <code>id + "." + timestamp + "." + raw body</code>, ` +
    "keyed with the bytes of the secret's base64 part (the secret reads <code>whsec_&lt;base64&gt;</code>); during a rotation it carries " +
    "both signatures, space-separated. The <code>standardwebhooks</code> and <code>svix</code> libraries verify it unchanged.</li></ul>" +
    pre("POST /api/v3/webhook-subscriptions\n" + JSON.stringify({ topic: "order:created", url: "https://example.com/hooks", signature_scheme: "standard" }, null, 2)) +
    `<p>A delivery signed with the secret <code>${EXAMPLE_STANDARD_SECRET}</code>:</p>` +
    pre(`POST /your/receiver HTTP/1.1\n${standardDelivery(rawBody)}\n\n${rawBody}`) +
    pre(STANDARD_RECIPE)
}

const recoverySection = (): string =>
  "<h2>Catching up after an outage</h2>" +
  "<p><code>GET /api/v3/events</code> lists the Store's events (newest first, kept <code>RETENTION_DAYS</code>, 30 by default), " +
  "each as <code>{object: \"event\", id, type, created_at, data, delivery_status}</code>: <code>id</code> is the " +
  "<code>x-webhook-id</code> of its deliveries and <code>data</code> their body. Filter with <code>type</code>, " +
  "<code>created_after</code>, <code>created_before</code> and <code>delivery_status</code> (<code>pending</code>, " +
  "<code>delivered</code>, <code>failed</code>); read one with <code>GET /api/v3/events/{event_id}</code>.</p>" +
  "<p><code>POST /api/v3/webhook-subscriptions/{webhook_id}/recover</code> with <code>{\"since\", \"until\"?}</code> " +
  "sends again every event of the subscription's topic created in that window (and since the subscription was created) " +
  "that has no successful delivery to it yet: failed, still retrying, cancelled when it was disabled, or never sent " +
  "while it was disabled. They go one at a time in the order they were created, each with its own <code>x-webhook-id</code>, " +
  "and the delivery log shows their attempts with <code>trigger: recovery</code>. <code>…/events/{event_id}/resend</code> " +
  "sends one event again (<code>trigger: manual</code>), and <code>…/test</code> sends a <code>" + TEST_EVENT_TOPIC +
  "</code> event to that subscription alone. All three need <code>webhooks:write</code>, answer <code>202</code>, " +
  "and work on a disabled subscription too, so a test can tell you the receiver is back before you re-enable it.</p>" +
  "<h3>With curl</h3>" + pre(RECOVERY_CURL) +
  "<h3>With @signcraft/client</h3>" + pre(RECOVERY_CLIENT) +
  "<p>The delivery log (<code>GET /api/v3/webhook-subscriptions/{webhook_id}/deliveries</code>) shows every attempt with its " +
  "<code>status</code>, <code>response_status</code>, the first " + String(RESPONSE_EXCERPT_BYTES) + " bytes of the answer " +
  "(<code>response_body</code>), <code>started_at</code>, <code>next_attempt_at</code> and <code>trigger</code> " +
  "(<code>scheduled</code>, <code>manual</code> or <code>recovery</code>).</p>"

const answersSection = (): string =>
  "<h2>What your answer means</h2><ul>" +
  "<li>Any <code>2xx</code>: delivered.</li>" +
  "<li><code>410 Gone</code>: the endpoint is gone for good. The subscription is disabled at once (<code>status: disabled</code>, " +
  "<code>disabled_reason: gone</code>) and its pending deliveries are cancelled; <code>PATCH</code> it with " +
  "<code>{\"status\": \"active\"}</code> to re-enable it, then recover what it missed.</li>" +
  `<li>${RETRY_AFTER_STATUSES.map((status) => `<code>${status}</code>`).join(", ")} with <code>Retry-After</code> ` +
  "(seconds, or an HTTP-date): the next attempt waits at least that long, but never more than " +
  `${formatDelay(MAX_RETRY_DELAY_MS)} (the schedule's longest wait), so one header cannot park deliveries past the retry window.</li>` +
  "<li>Anything else, a network failure or a timeout: retried on the schedule below.</li></ul>"

const topicSection = (entry: (typeof EVENT_TYPES)[number]): string => {
  const rawBody = JSON.stringify(entry.example)
  return `<h3 id="${escapeHtml(entry.topic.replace(":", "-"))}">${code(entry.topic)}${entry.deprecated ? " (deprecated)" : ""}</h3>` +
    `<p>${prose(entry.description)}</p>` +
    pre(`POST /your/receiver HTTP/1.1\n${deliveryHeaders(entry.topic, rawBody)}\n\n${rawBody}`) +
    "<p>The same body, indented for reading (the signature above is of the bytes as sent):</p>" +
    pre(JSON.stringify(entry.example, null, 2)) +
    `<p>Answer <code>200</code> with <code>${escapeHtml(ANSWERS[entry.topic])}</code>.</p>`
}

const retrySection = (baseMs: number): string => {
  const ceilings = retryCeilings(baseMs)
  return `<p>Any answer other than 2xx, a network failure or no complete answer within ${formatDelay(DELIVERY_TIMEOUT_MS)} is a failed attempt. ` +
    "The next attempt waits a random time between zero and a ceiling that doubles after each failure, up to " +
    `${formatDelay(MAX_RETRY_DELAY_MS)} (exponential backoff with full jitter, so receivers coming back from an ` +
    "outage are not hit by every retry at once):</p>" +
    "<table><thead><tr><th>after failed attempt</th><th>next attempt within</th></tr></thead><tbody>" +
    ceilings.map((ms, index) =>
      `<tr><td>${index + 1}${index === ceilings.length - 1 ? " and later" : ""}</td><td>${formatDelay(ms)}</td></tr>`
    ).join("") + "</tbody></table>" +
    `<p>A delivery is given up (status <code>failed</code>) only once it has had at least ${MIN_ATTEMPTS} attempts ` +
    `and its first attempt is at least ${formatDelay(MIN_RETRY_WINDOW_MS)} old. Every attempt of one event carries the ` +
    "same <code>x-webhook-id</code>: deduplicate on it. Failed deliveries can be listed and sent again with " +
    "<code>GET /api/v3/webhook-subscriptions/{webhook_id}/deliveries</code> and its <code>redeliver</code> operation, " +
    "or all at once with <code>recover</code> (above).</p>"
}

/** The webhooks guide (`/docs/webhooks`): payloads and headers per topic, verification recipes, the retry schedule. */
export const webhooksPage = (baseUrl: string, retryBaseMs: number): string =>
  docPage(
    baseUrl,
    "Webhooks",
    "<p>Subscribe with <code>POST /api/v3/webhook-subscriptions</code> (<code>topic</code>, <code>url</code>); the " +
      "answer carries the signing secret once, so store it then. Each event is delivered as an HTTP <code>POST</code> " +
      "with a JSON body to the subscription's URL. Receivers ignore members they do not know and tolerate new topics.</p>" +
      "<h2>Headers</h2><table><thead><tr><th>header</th><th>value</th></tr></thead><tbody>" +
      `<tr><td>${code("content-type")}</td><td><code>application/json</code></td></tr>` +
      `<tr><td>${code("user-agent")}</td><td>${code(DELIVERY_USER_AGENT)}</td></tr>` +
      `<tr><td>${code("x-webhook-id")}</td><td>The event's id (<code>${webhookIdOf(9001)}</code>), the same on every attempt and redelivery: deduplicate on it.</td></tr>` +
      `<tr><td>${code("x-webhook-topic")}</td><td>The topic, e.g. <code>order:created</code>.</td></tr>` +
      `<tr><td>${code(WEBHOOK_TIMESTAMP_HEADER)}</td><td>The signing time, Unix seconds as a decimal string.</td></tr>` +
      `<tr><td>${code(WEBHOOK_SIGNATURE_HEADER)}</td><td>Lowercase hex HMAC-SHA256, keyed with the subscription's secret, ` +
      "of the bytes <code>timestamp + \".\" + raw body</code>.</td></tr>" +
      `<tr><td>${code(WEBHOOK_NEXT_SIGNATURE_HEADER)}</td><td>Only for 24 hours after a secret rotation: the same HMAC keyed ` +
      "with the new secret, while the signature header above is keyed with the previous one.</td></tr></tbody></table>" +
      "<h2>Payloads</h2><p>The examples are signed with the secret <code>" + EXAMPLE_SECRET + "</code>.</p>" +
      EVENT_TYPES.map(topicSection).join("") +
      "<h2>Verifying a delivery</h2><p>Verify before parsing JSON, against the raw body exactly as received: any " +
      "re-serialisation changes the bytes. Check that both headers are present, that the timestamp is within " +
      `${DEFAULT_WEBHOOK_TOLERANCE_SECONDS} seconds of your clock (either direction) so an old delivery cannot be replayed, ` +
      "and compare the signature in constant time.</p>" +
      "<h3>TypeScript</h3>" + pre(TYPESCRIPT_RECIPE) +
      "<h3>Python</h3>" + pre(PYTHON_RECIPE) +
      "<h3>Shell (bash and openssl)</h3>" + pre(SHELL_RECIPE) +
      "<p>For example: <code>./verify.sh \"$SECRET\" \"$TIMESTAMP\" \"$SIGNATURE\" &lt; body.json</code> prints " +
      "<code>valid</code> (exit 0) or <code>invalid</code> (exit 1). Its comparison is not constant-time: use it to check " +
      "deliveries by hand or in scripts, and the TypeScript or Python version in a receiver.</p>" +
      standardSection() +
      "<h2>Rotating the secret</h2><p><code>POST /api/v3/webhook-subscriptions/{webhook_id}/rotate-secret</code> returns " +
      "a new secret once, with <code>previous_secret_expires_at</code> 24 hours ahead. Until then every delivery keeps " +
      `<code>${WEBHOOK_SIGNATURE_HEADER}</code> keyed with the previous secret, so a receiver that checks only that header ` +
      `keeps working, and adds <code>${WEBHOOK_NEXT_SIGNATURE_HEADER}</code> keyed with the new one. Install the new secret ` +
      "before the overlap ends, or verify with both secrets (<code>verifyWebhook({ secret: [next, previous] })</code> " +
      "checks both headers) and switch at any time.</p>" +
      "<h2>Failing endpoints</h2><p>A subscription whose deliveries have kept failing for five days is disabled: its " +
      "<code>status</code> reads <code>disabled</code> (v3 and v2) with <code>disabled_reason: failing</code>, its pending deliveries are cancelled with that reason " +
      "in the delivery log, and new events skip it. <code>PATCH</code> it with <code>{\"status\": \"active\"}</code> " +
      "(and a working <code>url</code>) to re-enable it.</p>" +
      answersSection() +
      recoverySection() +
      "<h2>Retries</h2>" + retrySection(retryBaseMs)
  )
