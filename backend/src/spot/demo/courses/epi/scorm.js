/* Spot's demo SCORM 1.2 client: finds the LMS's API in a parent frame (or the opener), as SCORM 1.2
   §3.3 describes, and wraps the calls the two SCOs of the course make. */
(function () {
  "use strict";

  function find(win) {
    for (var depth = 0; win && depth < 10; depth += 1) {
      try {
        if (win.API) return win.API;
      } catch (ignored) {
        return null; // a frame of another origin: no LMS above
      }
      if (win.parent === win) break;
      win = win.parent;
    }
    return null;
  }

  var api = find(window) || (window.opener ? find(window.opener) : null);
  var started = false;
  var finished = false;

  window.Scorm = {
    available: function () {
      return api !== null;
    },
    start: function () {
      if (!api || started) return started;
      started = api.LMSInitialize("") === "true";
      return started;
    },
    get: function (name) {
      return started ? api.LMSGetValue(name) : "";
    },
    set: function (name, value) {
      return started && api.LMSSetValue(name, String(value)) === "true";
    },
    commit: function () {
      return started && api.LMSCommit("") === "true";
    },
    finish: function () {
      if (!started || finished) return;
      finished = true;
      api.LMSFinish("");
    },
  };
})();
