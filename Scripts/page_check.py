#!/usr/bin/env python3
"""Looks at TileCast's page in a real headless Chromium (Debian's chromium and chromium-driver,
through selenium) and prints what a test needs to judge it, as one JSON object on stdout.

    python3 Scripts/page_check.py --base http://127.0.0.1:PORT --path '/?place=Lisbon' --width 360 \
        [--screenshot page.png] [--meteogram-screenshot meteogram.png] [--axe] \
        [--then-place NAME | --then-lat LAT --then-lon LON | --then-locate LAT,LON] [--keyboard NAME]
        [--search TEXT [--choose NAME]]

The viewport is set to exactly --width CSS pixels (DevTools' device metrics), the page is loaded
and the script waits until it shows a forecast or an error. Reported: the page's scrollWidth and
innerWidth, the first hourly row's local time, the warning and error texts, whether the content
is shown, the meteogram's precipitation bars and weather symbols, console messages, every URL the
page requested (to check that no other host is asked), and with --axe the violations axe-core
finds on the page and on the meteogram (axe.min.js from the installed axe-selenium-python
package: offline). With --then-*, the place is changed through the form afterwards and the state
reported again under "after". With --keyboard NAME, a keyboard-only session follows, reported
under "keyboard": the Tab order from the top of the page (each stop with whether its focus
is drawn), then, with keys alone, the place NAME typed in the search field and Enter, the
temperature unit changed with the arrow keys, and the meteogram's box scrolled with the arrow
keys. With --search TEXT, TEXT is typed key by key into the emptied search field and the places
the page then offers are reported under "search" (their buttons' texts, and the requests the
typing made); with --choose NAME, the offered place whose name is NAME is clicked and the state
reported again under "chosen", with the requests the choice made. Exit 0 when the JSON was
printed; the caller judges it.
"""
import argparse
import json
import os
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

STATE = r"""
const rows = [...document.querySelectorAll('#hours tbody tr[data-time]')];
const svg = document.querySelector('#meteogram svg');
const visible = id => { const e = document.getElementById(id); return !!e && !e.hidden && e.offsetParent !== null; };
return {
  scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
  contentShown: visible('content'), errorShown: visible('error'),
  error: document.getElementById('error').textContent, warningShown: visible('warning'),
  warning: document.getElementById('warning').textContent, source: document.getElementById('source').textContent,
  zone: document.getElementById('zone').textContent, placeName: document.getElementById('place-name').textContent,
  nowTitle: document.getElementById('now-title').textContent,
  hourRows: rows.length, firstRow: rows.length ? rows[0].dataset.time : null,
  headers: [...document.querySelectorAll('#hours thead th')].map(th => th.textContent),
  days: [...document.querySelectorAll('#days tbody tr')].map(tr => ({date: tr.dataset.date, partial: tr.dataset.partial === 'true', text: tr.textContent})),
  bars: svg ? svg.querySelectorAll('g.precipitation g.bar').length : 0,
  symbols: svg ? svg.querySelectorAll('g.symbols g.symbol').length : 0,
  nowLine: svg ? svg.querySelectorAll('g.now line').length : 0,
  domains: document.querySelectorAll('#domains polygon.domain-outline').length,
  aloftShown: visible('aloft'),
  // Warnings (issue 46): their lines, and whether the box comes before the meteogram.
  alertsShown: visible('alerts'),
  alerts: [...document.querySelectorAll('#alerts p')].map(p => [p.className, p.textContent]),
  alertsAboveMeteogram: !!document.getElementById('alerts') && !!document.getElementById('meteogram')
    && !!(document.getElementById('alerts').compareDocumentPosition(document.getElementById('meteogram')) & Node.DOCUMENT_POSITION_FOLLOWING),
  aloftHeaders: [...document.querySelectorAll('#aloft-table thead th')].map(th => th.textContent),
  aloftRows: [...document.querySelectorAll('#aloft-table tbody tr[data-time]')].map(tr => [...tr.children].map(c => c.textContent)),
  address: location.pathname + location.search,
  footerLinks: [...document.querySelectorAll('footer a')].map(a => a.getAttribute('href')),
  // Boxes whose content is wider than they are (they scroll sideways inside the page).
  overflowing: [...document.querySelectorAll('.scrollbox')].filter(b => b.scrollWidth > b.clientWidth).map(b => b.id || b.getAttribute('aria-labelledby')),
  smallTargets: [...document.querySelectorAll('button, input:not([type=hidden]), select')]
    .filter(e => e.offsetParent !== null).map(e => [e.id || e.tagName, e.getBoundingClientRect().width, e.getBoundingClientRect().height])
    .filter(t => t[1] < 44 || t[2] < 44),
};
"""


def driver_for(width, profile):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--user-data-dir=" + profile, "--window-size=%d,900" % max(width, 500)):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    # Exactly WIDTH CSS pixels of viewport, as a phone of that width has (mobile for phones).
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


def settled(driver, timeout=30):
    """Waits until the page shows a forecast or an error (the script's work is done)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        shown = driver.execute_script(
            "const c = document.getElementById('content'), e = document.getElementById('error'),"
            " l = document.getElementById('loading');"
            " return (!c.hidden || !e.hidden) && l.hidden;")
        if shown:
            return True
        time.sleep(0.1)
    return False


# Every request the page made since `main` loaded it (each call of requests_made drains
# Chromium's log: a session's own share is what that call returns).
SEEN = []


def requests_made(driver):
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    SEEN.extend(urls)
    return urls


def run_axe(driver, context=None):
    from axe_selenium_python import Axe
    axe = Axe(driver)
    axe.inject()
    results = axe.run(context=context)
    violations = [{"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": len(v["nodes"]),
                   "targets": [n["target"] for n in v["nodes"]][:5]} for v in results["violations"]]
    # The rules that passed, so that a caller can tell an axe that ran from one that did not.
    return violations, len(results["passes"])


def full_page_screenshot(driver, path, width):
    height = min(driver.execute_script("return document.documentElement.scrollHeight"), 3000)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    time.sleep(0.3)
    driver.save_screenshot(path)
    small_png(path)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})


def small_png(path):
    """The screenshot with at most 256 colours: a page is mostly flat colour and text, and the
    README's pictures stay small (a 1280 px page: about a third of the bytes)."""
    from PIL import Image
    with Image.open(path) as image:
        image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def change_place(driver, arguments):
    if arguments.then_locate is not None:
        # The browser's location as a phone would give it, allowed for this page; then the
        # "Use my location" button, pressed from the keyboard.
        latitude, longitude = (float(v) for v in arguments.then_locate.split(","))
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": arguments.base, "permissions": ["geolocation"]})
        driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": latitude, "longitude": longitude, "accuracy": 10})
        driver.find_element(By.ID, "locate").send_keys(" ")
        time.sleep(0.5)
        settled(driver)
        return
    if arguments.then_place is not None:
        field = driver.find_element(By.ID, "q")
        field.clear()
        field.send_keys(arguments.then_place)
    else:
        driver.execute_script("document.getElementById('q').value = '';")
        for name, value in (("lat", arguments.then_lat), ("lon", arguments.then_lon)):
            field = driver.find_element(By.ID, name)
            field.clear()
            field.send_keys(value)
    # With the keyboard, as a person without a mouse would: Enter in the field submits the form.
    driver.switch_to.active_element.send_keys("\n")
    time.sleep(0.2)
    settled(driver)


FOCUSED = r"""
const e = document.activeElement;
if (!e || e === document.body) return null;
const style = getComputedStyle(e);
return {id: e.id || e.getAttribute('aria-labelledby') || e.tagName.toLowerCase(), tag: e.tagName.toLowerCase(),
        outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        scrollLeft: e.scrollLeft};
"""


def press(driver, *keys):
    """Keys as a keyboard sends them: to whatever has the focus, never to a chosen element."""
    chain = ActionChains(driver)
    for key in keys:
        chain.send_keys(key)
    chain.perform()
    time.sleep(0.05)


def tab_to(driver, wanted, limit=40):
    """Presses Tab until the element `wanted` has the focus; False when it never does."""
    for _ in range(limit):
        press(driver, Keys.TAB)
        focused = driver.execute_script(FOCUSED)
        if focused and focused["id"] == wanted:
            return True
    return False


def keyboard_session(driver, place):
    """Uses the page with the keyboard alone, from a fresh load with nothing focused."""
    report = {"tabOrder": [], "unfocusedOutline": []}
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    seen = set()
    for _ in range(60):
        press(driver, Keys.TAB)
        focused = driver.execute_script(FOCUSED)
        if focused is None or focused["id"] in seen:
            break
        seen.add(focused["id"])
        report["tabOrder"].append(focused["id"])
        if not focused["outline"]:
            report["unfocusedOutline"].append(focused["id"])
    # A place by name: Tab to the search field, replace its text, Enter.
    driver.execute_script("document.activeElement && document.activeElement.blur();")
    report["reachedSearch"] = tab_to(driver, "q")
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
    press(driver, Keys.DELETE, place, Keys.ENTER)
    time.sleep(0.2)
    settled(driver)
    report["placeName"] = driver.execute_script("return document.getElementById('place-name').textContent")
    # The temperature unit with the arrow keys (a closed select changes on ArrowDown).
    report["reachedUnit"] = tab_to(driver, "tunit")
    press(driver, Keys.ARROW_DOWN)
    time.sleep(0.2)
    settled(driver)
    report["headers"] = driver.execute_script("return [...document.querySelectorAll('#hours thead th')].map(th => th.textContent)")
    # The meteogram's box scrolls sideways with the arrow keys once it has the focus.
    report["reachedMeteogram"] = tab_to(driver, "meteogram")
    before = driver.execute_script("return document.getElementById('meteogram').scrollLeft")
    press(driver, *([Keys.ARROW_RIGHT] * 8))
    time.sleep(0.3)
    report["meteogramScrolled"] = driver.execute_script("return document.getElementById('meteogram').scrollLeft") - before
    report["meteogramOverflows"] = driver.execute_script(
        "const b = document.getElementById('meteogram'); return b.scrollWidth > b.clientWidth")
    report["address"] = driver.execute_script("return location.pathname + location.search")
    return report


def search_session(driver, text, choose):
    """Types `text` as a person would, waits for the offers, and clicks the one named `choose`."""
    report = {}
    requests_made(driver)   # what the page asked before: not the search's
    field = driver.find_element(By.ID, "q")
    field.clear()
    for key in text:
        field.send_keys(key)
        time.sleep(0.03)
    offers = []
    deadline = time.time() + 10
    while time.time() < deadline:
        offers = driver.execute_script(
            "const b = document.getElementById('suggestions');"
            " return b.hidden ? [] : [...b.querySelectorAll('button')].map(x => x.textContent);")
        if offers:
            break
        time.sleep(0.1)
    report["offers"] = offers
    report["requests"] = requests_made(driver)
    if choose is not None:
        buttons = driver.find_elements(By.CSS_SELECTOR, "#suggestions button")
        wanted = [b for b in buttons if b.text.split("\n")[0].startswith(choose)]
        report["clicked"] = bool(wanted)
        if wanted:
            wanted[0].click()
            time.sleep(0.2)
            settled(driver)
        report["chosen"] = driver.execute_script(STATE)
        report["chosenRequests"] = requests_made(driver)
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True)
    parser.add_argument("--path", default="/")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--screenshot")
    parser.add_argument("--meteogram-screenshot")
    parser.add_argument("--axe", action="store_true")
    parser.add_argument("--then-place")
    parser.add_argument("--then-lat")
    parser.add_argument("--then-lon")
    parser.add_argument("--then-locate")
    parser.add_argument("--keyboard", metavar="NAME")
    parser.add_argument("--search", metavar="TEXT")
    parser.add_argument("--choose", metavar="NAME")
    arguments = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tilecast-page-check-") as profile:
        driver = driver_for(arguments.width, profile)
        try:
            requests_made(driver)   # the new-tab page's own, before ours
            SEEN.clear()
            driver.get(arguments.base + arguments.path)
            report = {"settled": settled(driver)}
            report.update(driver.execute_script(STATE))
            # Pictures first: axe scrolls elements into view (the meteogram's box among them).
            if arguments.meteogram_screenshot and report["contentShown"]:
                picture = driver.find_element(By.CSS_SELECTOR, "#meteogram svg")
                driver.execute_script("arguments[0].scrollIntoView({block: 'start'});", picture)
                picture.screenshot(arguments.meteogram_screenshot)
                small_png(arguments.meteogram_screenshot)
                driver.execute_script("window.scrollTo(0, 0);")
            if arguments.screenshot:
                full_page_screenshot(driver, arguments.screenshot, arguments.width)
            if arguments.axe:
                report["axe"], report["axePasses"] = run_axe(driver)
                report["axeMeteogram"], report["axeMeteogramPasses"] = run_axe(driver, {"include": [["#meteogram"]]})
            if arguments.then_place is not None or arguments.then_lat is not None or arguments.then_locate is not None:
                requests_made(driver)
                change_place(driver, arguments)
                report["after"] = driver.execute_script(STATE)
                # The requests the change made (Enter once: one forecast).
                report["afterRequests"] = requests_made(driver)
            if arguments.search is not None:
                report["search"] = search_session(driver, arguments.search, arguments.choose)
            if arguments.keyboard is not None:
                report["keyboard"] = keyboard_session(driver, arguments.keyboard)
            report["console"] = [entry["message"] for entry in driver.get_log("browser")]
            requests_made(driver)
            report["requests"] = list(SEEN)
        finally:
            driver.quit()
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()
