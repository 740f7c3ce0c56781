/**
 * The dashboard's one stylesheet, served by signcraft itself (`/dashboard/assets/dashboard.css`).
 * Colours keep WCAG AA contrast (4.5:1 for text); below 40rem tables turn into labelled cards.
 */
export const DASHBOARD_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa;line-height:1.5}
body{margin:0}
a{color:#0b5cad}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible,[tabindex]:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:2}
.skip:focus{left:.5rem}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.75rem 1.25rem;background:#fff;border-bottom:1px solid #d0d7de}
.brand{font-weight:700;font-size:1.1rem;text-decoration:none;color:#1f2328}
.who{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;color:#57606a;font-size:.9rem}
.who form{margin:0}
.sections{background:#fff;border-bottom:1px solid #d0d7de;padding:0 1.25rem;overflow-x:auto}
.sections ul{display:flex;flex-wrap:wrap;gap:0 .25rem;margin:0;padding:0;list-style:none}
.sections a{display:block;padding:.6rem .75rem;text-decoration:none;color:#424a53;border-bottom:3px solid transparent;white-space:nowrap}
.sections a[aria-current=page]{color:#1f2328;border-bottom-color:#0b5cad;font-weight:600}
main{max-width:72rem;margin:0 auto;padding:1.25rem}
h1{font-size:1.5rem;margin:.25rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .75rem}
.crumb{color:#57606a;font-size:.9rem;margin:0}
.panel{background:#fff;border:1px solid #d0d7de;border-radius:.5rem;padding:1rem 1.25rem;margin:0 0 1rem}
.panel>h2:first-child,.panel figcaption h2{margin-top:0}
.narrow{max-width:26rem;margin:2rem auto}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=password],input[type=text],input[type=datetime-local],select{width:100%;max-width:32rem;padding:.5rem;border:1px solid #8c959f;border-radius:.375rem;font:inherit;background:#fff;color:#1f2328}
fieldset{border:1px solid #d0d7de;border-radius:.375rem;margin:.75rem 0;padding:.5rem .75rem}
legend{font-weight:600;padding:0 .25rem}
.choices{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.25rem .75rem}
.choices label{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.2rem 0}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:.375rem;border:1px solid #0b5cad;background:#0b5cad;color:#fff;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#0b5cad}
button.danger{background:#b42318;border-color:#b42318;color:#fff}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin-top:1rem}
.inline{display:inline;margin:0}
table{width:100%;border-collapse:collapse;background:#fff}
th,td{text-align:left;padding:.5rem .6rem;border-bottom:1px solid #d0d7de;vertical-align:top}
caption{text-align:left;padding:.25rem 0}
th{font-size:.85rem;color:#424a53;background:#f6f8fa}
td code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.875rem;word-break:break-all}
.muted{color:#57606a;font-size:.9rem}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:1rem;font-size:.8rem;font-weight:600;background:#eaeef2;color:#424a53}
.badge.ok{background:#dafbe1;color:#116329}
.badge.bad{background:#ffebe9;color:#a40e26}
.badge.warn{background:#fff8c5;color:#6c4400}
.notice{background:#dafbe1;color:#116329;border:1px solid #4ac26b;border-radius:.375rem;padding:.6rem .9rem}
.alert{background:#ffebe9;color:#a40e26;border:1px solid #ff8182;border-radius:.375rem;padding:.6rem .9rem}
.secret{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.secret input{flex:1 1 18rem;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.stores{list-style:none;padding:0;margin:0;display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr))}
.stores a{display:block;padding:1rem;background:#fff;border:1px solid #d0d7de;border-radius:.5rem;text-decoration:none;color:#1f2328}
.stores a:hover{border-color:#0b5cad}
.totals{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));margin:0 0 1rem}
.totals div{background:#fff;border:1px solid #d0d7de;border-radius:.5rem;padding:.75rem 1rem}
.totals dt{color:#57606a;font-size:.85rem}
.totals dd{margin:0;font-size:1.35rem;font-weight:700}
.periods{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;padding:0;margin:0 0 1rem}
.periods a{display:block;padding:.35rem .75rem;border:1px solid #d0d7de;border-radius:1rem;text-decoration:none;background:#fff}
.periods a[aria-current=page]{background:#0b5cad;border-color:#0b5cad;color:#fff}
figure{margin:0}
.chart svg{width:100%;height:auto;display:block}
.chart .axis{stroke:#8c959f;stroke-width:1}
.chart .grid{stroke:#d0d7de;stroke-width:1}
.chart .line{fill:none;stroke:#0b5cad;stroke-width:2.5}
.chart .area{fill:#0b5cad;fill-opacity:.08}
.chart .point{fill:#fff;stroke:#0b5cad;stroke-width:2}
.chart .point:focus,.chart .point:hover,.chart .point.current{fill:#0b5cad;outline:none}
.chart text{fill:#424a53;font-size:12px}
.chart-readout{min-height:1.5rem;font-weight:600}
.attempts{margin:.25rem 0 0;padding-left:1.1rem}
.excerpt{display:block;white-space:pre-wrap;background:#f6f8fa;border-radius:.25rem;padding:.25rem .4rem;margin-top:.25rem;max-height:8rem;overflow:auto}
@media (max-width:40rem){
  main{padding:.75rem}
  .top{padding:.6rem .75rem}
  table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%}
  table.cards thead{position:absolute;left:-9999px}
  table.cards caption{display:block;width:100%}
  table.cards tr{border:1px solid #d0d7de;border-radius:.5rem;margin:0 0 .75rem;background:#fff}
  table.cards td{border-bottom:1px solid #eaeef2}
  table.cards td::before{content:attr(data-label);display:block;font-size:.8rem;font-weight:600;color:#57606a}
}
`
