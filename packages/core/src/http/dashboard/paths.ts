import { basePathOf } from "../../domain/deployment/base-path.js"

/** Where the dashboard lives below the base path. */
export const DASHBOARD_PATH = "/dashboard"

/** The sections of a Store's pages, in the order the navigation shows them. */
export const STORE_SECTIONS = [
  { slug: "keys", label: "API keys" },
  { slug: "webhooks", label: "Webhooks" },
  { slug: "agents", label: "Connected agents" },
  { slug: "analytics", label: "Analytics" },
  { slug: "migration", label: "Migration" },
  { slug: "pricing", label: "Pricing" }
] as const

/** One section of a Store's pages. */
export type StoreSection = (typeof STORE_SECTIONS)[number]["slug"]

/**
 * The dashboard's links and form actions for one deployment: absolute paths carrying the base
 * path, so they work wherever the host mounts signcraft.
 */
export const dashboardPaths = (baseUrl: string) => {
  const root = `${basePathOf(baseUrl)}${DASHBOARD_PATH}`
  const store = (storeId: number) => `${root}/stores/${storeId}`
  return {
    root,
    signIn: `${root}/sign-in`,
    signOut: `${root}/sign-out`,
    stylesheet: `${root}/assets/dashboard.css`,
    script: `${root}/assets/dashboard.js`,
    store,
    section: (storeId: number, section: StoreSection) => `${store(storeId)}/${section}`,
    revokeKey: (storeId: number, keyId: number) => `${store(storeId)}/keys/${keyId}/revoke`,
    webhook: (storeId: number, webhookId: number) => `${store(storeId)}/webhooks/${webhookId}`,
    webhookAction: (storeId: number, webhookId: number, action: string) => `${store(storeId)}/webhooks/${webhookId}/${action}`,
    resendEvent: (storeId: number, webhookId: number, eventId: number) =>
      `${store(storeId)}/webhooks/${webhookId}/events/${eventId}/resend`,
    revokeAgent: (storeId: number, grantId: number) => `${store(storeId)}/agents/${grantId}/revoke`,
    /** The migration guide, which the dashboard links to. */
    migrationGuide: `${basePathOf(baseUrl)}/docs/migration`
  }
}

/** The dashboard's paths for one deployment. */
export type DashboardPaths = ReturnType<typeof dashboardPaths>
