/**
 * The dashboard's one script, served by signcraft itself (`/dashboard/assets/dashboard.js`). Every
 * page works without it: it only adds a copy button to one-time secrets and reads out the revenue
 * chart's point under the pointer or keyboard focus.
 */
export const DASHBOARD_JS = `(() => {
  for (const field of document.querySelectorAll("[data-copy]")) {
    const button = document.createElement("button")
    button.type = "button"
    button.className = "secondary"
    button.textContent = "Copy"
    button.addEventListener("click", async () => {
      field.select()
      try {
        await navigator.clipboard.writeText(field.value)
        button.textContent = "Copied"
      } catch {
        button.textContent = "Press Ctrl+C to copy"
      }
    })
    field.after(button)
  }
  for (const chart of document.querySelectorAll("[data-chart]")) {
    const readout = chart.querySelector(".chart-readout")
    const points = chart.querySelectorAll(".point")
    const show = (point) => {
      for (const other of points) other.classList.remove("current")
      point.classList.add("current")
      if (readout) readout.textContent = point.getAttribute("aria-label")
    }
    for (const point of points) {
      point.addEventListener("mouseenter", () => show(point))
      point.addEventListener("focus", () => show(point))
    }
  }
})()
`
