/// The page's style: phones first (one column, nothing wider than the screen at 360 px; the
/// meteogram and tables scroll inside their own boxes if they must), touch targets of at least
/// 44 px, a visible keyboard focus, colours with enough contrast for axe's AA rules.
enum PageStyle {
    static let css = #"""
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { font-family: system-ui, sans-serif; margin: 0; color: #1b1b1b; background: #fff; line-height: 1.4; }
header, main, footer { max-width: 62rem; margin: 0 auto; padding: 0 .75rem; }
h1 { font-size: 1.35rem; margin: .8rem 0 .4rem; }
h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; }
a { color: #0b57a4; }
:focus-visible { outline: 3px solid #0b57a4; outline-offset: 2px; }
form { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: flex-end; margin: 0 0 .5rem; }
.field { display: flex; flex-direction: column; min-width: 0; }
.field label { font-size: .85rem; font-weight: 600; }
#named { flex: 1 1 16rem; position: relative; }
.suggestions { display: flex; flex-direction: column; gap: .25rem; margin-top: .3rem; }
.suggestions[hidden] { display: none; }
.suggestions button { background: #fff; color: #1b1b1b; border-color: #6b6b6b; text-align: left; }
.suggestions button .hint { margin-left: .4rem; }
.coordinates { display: flex; gap: .5rem; flex: 1 1 14rem; }
.coordinates .field { flex: 1 1 0; }
input, select, button { font: inherit; min-height: 44px; min-width: 44px; border: 1px solid #6b6b6b; border-radius: 6px; padding: .35rem .5rem; background: #fff; color: inherit; }
input { width: 100%; }
button { background: #0b57a4; color: #fff; border-color: #0b57a4; padding: .35rem .9rem; cursor: pointer; }
button#locate { background: #fff; color: #0b57a4; }
.buttons { display: flex; gap: .5rem; flex-wrap: wrap; }
fieldset.units { display: flex; gap: .5rem; border: 0; padding: 0; margin: 0; flex-wrap: wrap; }
fieldset.units legend { font-size: .85rem; font-weight: 600; padding: 0; margin-bottom: .1rem; }
.hint { color: #545454; font-size: .85rem; margin: .2rem 0; }
#locate-status { flex-basis: 100%; min-height: 0; margin: 0; }
.error { border: 2px solid #b3261e; background: #fdecea; color: #8c1d18; padding: .75rem; border-radius: 6px; margin: .5rem 0; }
.warning { border: 2px solid #8a5a00; background: #fff4d6; color: #4d3300; padding: .6rem .75rem; border-radius: 6px; margin: .5rem 0; }
.warning p { margin: .2rem 0; }
.alerts p { margin: .3rem 0; padding: .45rem .7rem; border-radius: 6px; border-left: 6px solid; color: #1a1a1a; }
.alerts .yellow { background: #fff7c2; border-color: #8a6d00; }
.alerts .orange { background: #ffe0c2; border-color: #a64b00; }
.alerts .red { background: #ffd6d6; border-color: #a30000; }
#source { margin: .2rem 0; }
.now-card { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; }
.now-main { display: flex; align-items: center; gap: .6rem; }
.now-main .symbol { width: 64px; height: 64px; }
.now-temp { font-size: 2.2rem; font-weight: 600; }
.now-card dl { display: grid; grid-template-columns: auto auto; gap: .1rem .8rem; margin: 0; }
.now-card dt { color: #545454; }
.now-card dd { margin: 0; font-weight: 600; }
.scrollbox { max-width: 100%; overflow-x: auto; margin: .3rem 0 .6rem; }
#meteogram svg { display: block; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: .3rem 0; }
th, td { padding: .25rem .25rem; text-align: right; border-bottom: 1px solid #ddd; vertical-align: middle; }
thead th { font-size: .8rem; vertical-align: bottom; }
th .unit { display: block; font-weight: normal; color: #545454; }
th:first-child, td:first-child { text-align: left; }
tr.day th { text-align: left; background: #f0f3f6; font-size: .85rem; }
td.weather { text-align: left; white-space: nowrap; }
td.wind { white-space: nowrap; }
td.weather .words { margin-left: .3rem; }
.symbol { width: 28px; height: 28px; vertical-align: middle; }
.partial { color: #8a5a00; font-size: .8rem; display: block; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
svg.defs { position: absolute; width: 0; height: 0; overflow: hidden; }
#domains svg { max-width: 100%; height: auto; display: block; border: 1px solid #ccc; background: #f7f9fb; }
footer.hint { margin: 1.5rem auto 1rem; }
@media (max-width: 40rem) {
  table { font-size: .85rem; }
  thead th { font-size: .72rem; }
  th, td { padding: .2rem .15rem; }
  td.weather .words { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .now-temp { font-size: 1.8rem; }
}
"""#
}
