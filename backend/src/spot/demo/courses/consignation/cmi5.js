/*
 * A small cmi5 client for the pages of this course (cmi5 §7–§10): it reads the launch parameters,
 * fetches the auth token once, reads LMS.LaunchData, and sends cmi5 defined statements built on its
 * context template. The page runs sandboxed (no storage, an opaque origin): everything lives here.
 */
(function () {
  "use strict";

  var VERBS = "http://adlnet.gov/expapi/verbs/";
  var CMI5_CATEGORY = "https://w3id.org/xapi/cmi5/context/categories/cmi5";
  var MOVE_ON_CATEGORY = "https://w3id.org/xapi/cmi5/context/categories/moveon";
  var MASTERY_SCORE = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";
  var PROGRESS = "spot.demo.progress";

  var query = new URLSearchParams(window.location.search);
  var launch = {
    endpoint: query.get("endpoint"),
    fetch: query.get("fetch"),
    actor: query.get("actor"),
    registration: query.get("registration"),
    activityId: query.get("activityId"),
  };
  var token = null;
  var launchData = null;
  var startedAt = null;
  var terminated = false;

  function uuid() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 0x100).toString(16).slice(1);
    }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function headers(json) {
    var h = { Authorization: "Basic " + token, "X-Experience-API-Version": "1.0.3" };
    if (json) h["Content-Type"] = "application/json";
    return h;
  }

  function address(resource, params) {
    var base = launch.endpoint.replace(/\/?$/, "/");
    return base + resource + "?" + new URLSearchParams(params).toString();
  }

  function stateParams(stateId) {
    var params = { activityId: launch.activityId, agent: launch.actor, registration: launch.registration };
    if (stateId) params.stateId = stateId;
    return params;
  }

  function check(response) {
    if (!response.ok) throw new Error("LMS answered " + response.status);
    return response;
  }

  function readState(stateId) {
    return fetch(address("activities/state", stateParams(stateId)), { headers: headers(false) }).then(
      function (response) {
        if (response.status === 404) return null;
        return check(response).json();
      }
    );
  }

  function writeState(stateId, document) {
    return fetch(address("activities/state", stateParams(stateId)), {
      method: "PUT",
      headers: headers(true),
      body: JSON.stringify(document),
    }).then(check);
  }

  function duration() {
    var seconds = Math.max(0, Math.round((Date.now() - startedAt) / 1000));
    return "PT" + seconds + "S";
  }

  function statement(verb, display, result, extraCategories) {
    var context = JSON.parse(JSON.stringify(launchData.contextTemplate));
    context.registration = launch.registration;
    context.contextActivities = context.contextActivities || {};
    context.contextActivities.category = [{ id: CMI5_CATEGORY }].concat(extraCategories || []);
    var body = {
      id: uuid(),
      actor: JSON.parse(launch.actor),
      verb: { id: VERBS + verb, display: { "fr-FR": display } },
      object: { objectType: "Activity", id: launch.activityId },
      context: context,
      timestamp: new Date().toISOString(),
    };
    if (result) body.result = result;
    return body;
  }

  function send(body, keepalive) {
    return fetch(address("statements", { statementId: body.id }), {
      method: "PUT",
      headers: headers(true),
      body: JSON.stringify(body),
      keepalive: !!keepalive,
    }).then(check);
  }

  // Statements with success or completion carry the moveon category (cmi5 §9.6.2.2).
  function moveOn() {
    return [{ id: MOVE_ON_CATEGORY }];
  }

  // Browse and Review record no result (cmi5 §10.2.2).
  function recording() {
    return launchData.launchMode === "Normal";
  }

  var Cmi5 = {
    /** Fetch the auth token, read LMS.LaunchData and the learner's progress, send initialized. */
    start: function () {
      if (!launch.endpoint || !launch.fetch || !launch.actor || !launch.activityId) {
        return Promise.reject(new Error("Not launched by a learning platform"));
      }
      startedAt = Date.now();
      return fetch(launch.fetch, { method: "POST" })
        .then(check)
        .then(function (response) {
          return response.json();
        })
        .then(function (answer) {
          if (!answer["auth-token"]) throw new Error(answer["error-text"] || "No auth token");
          token = answer["auth-token"];
          return readState("LMS.LaunchData");
        })
        .then(function (data) {
          if (!data) throw new Error("No LMS.LaunchData");
          launchData = data;
          return readState(null);
        })
        .then(function (stateIds) {
          // Read the progress document only when there is one: asking for a missing one is a 404.
          return stateIds.indexOf(PROGRESS) >= 0 ? readState(PROGRESS) : null;
        })
        .then(function (progress) {
          Cmi5.progress = progress || {};
          return send(statement("initialized", "a commencé"));
        })
        .then(function () {
          return launchData;
        });
    },
    progress: {},
    masteryScore: function () {
      return launchData && typeof launchData.masteryScore === "number" ? launchData.masteryScore : null;
    },
    /** completed, once per registration (cmi5 §9.3.3). */
    completed: function () {
      if (Cmi5.progress.completed || !recording()) return Promise.resolve(false);
      return send(statement("completed", "a terminé", { completion: true, duration: duration() }, moveOn()))
        .then(function () {
          Cmi5.progress.completed = true;
          return writeState(PROGRESS, Cmi5.progress);
        })
        .then(function () {
          return true;
        });
    },
    /** passed or failed with the scaled score; nothing once passed in this registration (§9.3). */
    judged: function (scaled, raw, max) {
      if (Cmi5.progress.passed || !recording()) return Promise.resolve(null);
      var mastery = Cmi5.masteryScore();
      var passed = mastery === null ? scaled === 1 : scaled >= mastery;
      var result = {
        score: { scaled: scaled, raw: raw, min: 0, max: max },
        success: passed,
        duration: duration(),
      };
      var verb = passed ? "passed" : "failed";
      var judged = statement(verb, passed ? "a réussi" : "a échoué", result, moveOn());
      // The mastery score the verb was judged on (cmi5 §9.6.3.2).
      if (mastery !== null) judged.context.extensions[MASTERY_SCORE] = mastery;
      return send(judged)
        .then(function () {
          if (!passed) return null;
          Cmi5.progress.passed = true;
          return writeState(PROGRESS, Cmi5.progress);
        })
        .then(function () {
          return passed;
        });
    },
    /** terminated, the last statement of the session (§9.3.8), then back to the LMS (§10.2.6). */
    terminate: function (keepalive) {
      if (terminated || !token) return Promise.resolve();
      terminated = true;
      return send(statement("terminated", "a quitté", { duration: duration() }), keepalive);
    },
    exit: function () {
      return Cmi5.terminate(false).then(function () {
        if (launchData && launchData.returnURL) window.location.assign(launchData.returnURL);
      });
    },
  };

  window.addEventListener("pagehide", function () {
    Cmi5.terminate(true);
  });
  window.Cmi5 = Cmi5;
})();
