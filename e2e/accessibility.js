// Runs axe-core (injected before this script) in every document of a journey: after the first
// load, after each client-side navigation, and whenever a dialog, menu or list box opens (or one kept
// in the page shows), once the page has stopped changing. Serious and critical violations go to the test through the binding
// window.__spotAxeReport; window.__spotAxe.idle() resolves when no check is waiting or running.
;(() => {
  // Only the application's documents: not a JSON answer or an image opened in the tab.
  if (window.top !== window || window.__spotAxe || !location.protocol.startsWith('http') || document.contentType !== 'text/html') return
  const QUIET_MS = 400
  const LONGEST_WAIT_MS = 4000
  const OVERLAYS = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], [role="tooltip"]'
  let quietTimer = null
  let deadline = null
  let running = null
  let waiting = false
  const idleWaiters = []

  function settle() {
    if (waiting || running) return
    idleWaiters.splice(0).forEach((resolve) => resolve())
  }

  /** Transitions under way (a menu growing, a dialog fading in) end first: axe would read their half-transparent colours.
   * Those that start meanwhile (a tooltip, a ripple) end too, and the first frame after them is drawn, until none runs
   * (within LONGEST_WAIT_MS: an endless one is left alone). */
  async function transitionsEnded() {
    const until = Date.now() + LONGEST_WAIT_MS
    for (;;) {
      const finite = document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity)
      if (finite.length === 0 || Date.now() > until) return
      await Promise.race([Promise.allSettled(finite.map((a) => a.finished)), new Promise((resolve) => setTimeout(resolve, 500))])
      await new Promise((resolve) => requestAnimationFrame(() => resolve()))
    }
  }

  function check() {
    waiting = false
    deadline = null
    running = transitionsEnded()
      .then(() => {
        const state = [...document.querySelectorAll(OVERLAYS)].map(describe).join(', ')
        // Spot's own document, not its frames: they hold what others made (a video, a PDF in the browser's viewer,
        // a course), and a frame axe cannot message (the PDF viewer) made the whole run time out.
        return window.axe.run(document, { resultTypes: ['violations'], iframes: false, rules: rulesNeverSerious() }).then((results) => ({ state, results }))
      })
      .then(({ state, results }) => {
        const violations = results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.map((n) => ({
              target: n.target.join(' '),
              // The last line says what is wrong with this node (e.g. the contrast and colours found).
              why: (n.failureSummary ?? '').trim().split('\n').pop().trim(),
            })),
          }))
        return window.__spotAxeReport({
          url: location.pathname + location.search,
          language: document.documentElement.lang,
          state,
          violations,
        })
      })
      .catch((error) => window.__spotAxeReport({ url: location.pathname, error: String(error) }))
      .finally(() => {
        running = null
        if (waiting) restartQuietTimer()
        settle()
      })
  }

  /** Only serious and critical violations fail a journey. A node's impact is the highest of its failed checks', so a rule
   * whose checks are all minor or moderate (region, heading-order, the landmark rules…) can never fail one: such rules are
   * not run. The impacts are read from axe's own data, so that a rule a new axe makes serious runs; if that data is not
   * where it was, every rule runs. */
  let neverSerious = null
  function rulesNeverSerious() {
    if (neverSerious) return neverSerious
    neverSerious = {}
    const audit = window.axe._audit
    const checks = audit?.data?.checks
    if (!checks || !Array.isArray(audit.rules)) return neverSerious
    for (const rule of audit.rules) {
      const impacts = [...rule.any, ...rule.all, ...rule.none].map((check) => checks[check.id ?? check]?.impact)
      if (impacts.length > 0 && impacts.every((impact) => impact === 'minor' || impact === 'moderate')) neverSerious[rule.id] = { enabled: false }
    }
    return neverSerious
  }

  function describe(el) {
    const labelledBy = el.getAttribute('aria-labelledby')
    const title = labelledBy && document.getElementById(labelledBy.split(' ')[0])
    const name = el.getAttribute('aria-label') ?? title?.textContent ?? el.textContent.slice(0, 40)
    return `${el.getAttribute('role')} « ${name.trim()} »`
  }

  function restartQuietTimer() {
    clearTimeout(quietTimer)
    if (running) return
    const now = Date.now()
    const delay = Math.max(0, Math.min(QUIET_MS, deadline - now))
    quietTimer = setTimeout(check, delay)
  }

  function schedule() {
    if (!waiting) {
      waiting = true
      deadline = Date.now() + LONGEST_WAIT_MS
    }
    restartQuietTimer()
  }

  function opensOverlay(node) {
    return node.nodeType === 1 && (node.matches(OVERLAYS) || node.querySelector(OVERLAYS) !== null)
  }

  /** A popup kept in the page while closed (MUI's keepMounted) shows by losing its display: none. */
  function showsOverlay(record) {
    const hidden = (style) => /display:\s*none/.test(style ?? '')
    return record.type === 'attributes' && record.attributeName === 'style' && hidden(record.oldValue) && !hidden(record.target.getAttribute('style')) && opensOverlay(record.target)
  }

  function start() {
    new MutationObserver((records) => {
      if (records.some((r) => [...r.addedNodes].some(opensOverlay) || showsOverlay(r))) schedule()
      else if (waiting) restartQuietTimer()
    }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true })
    schedule()
  }

  for (const method of ['pushState', 'replaceState']) {
    const original = history[method]
    history[method] = function (...args) {
      const before = location.href
      const result = original.apply(this, args)
      if (location.href !== before) schedule()
      return result
    }
  }
  window.addEventListener('popstate', schedule)

  window.__spotAxe = {
    rulesNotRun: () => Object.keys(rulesNeverSerious()),
    idle: () => new Promise((resolve) => {
      idleWaiters.push(resolve)
      settle()
    }),
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
  else start()
})()
