(function () {
  "use strict";
  // Three pages; the learner's place is kept in cmi.core.lesson_location, and the reading is completed
  // once the last page is reached. Leaving before the end suspends the SCO, to resume there.
  var PAGES = 3;
  var page = 1;
  var where = document.getElementById("where");
  var previous = document.getElementById("previous");
  var next = document.getElementById("next");
  var status = document.getElementById("status");

  function show(number) {
    page = number;
    for (var n = 1; n <= PAGES; n += 1) {
      document.getElementById("page-" + n).hidden = n !== page;
    }
    where.textContent = "Page " + page + " sur " + PAGES;
    previous.disabled = page === 1;
    next.disabled = page === PAGES;
    window.Scorm.set("cmi.core.lesson_location", page);
    if (page === PAGES && window.Scorm.get("cmi.core.lesson_status") !== "completed") {
      window.Scorm.set("cmi.core.lesson_status", "completed");
      status.textContent = "Lecture terminée.";
    }
    window.Scorm.set("cmi.core.exit", page === PAGES ? "" : "suspend");
    window.Scorm.commit();
  }

  if (!window.Scorm.start()) {
    status.textContent = "Ce module doit être ouvert depuis la plateforme de formation.";
    status.className = "status error";
  }
  var kept = parseInt(window.Scorm.get("cmi.core.lesson_location"), 10);
  if (window.Scorm.get("cmi.core.lesson_status") === "not attempted") {
    window.Scorm.set("cmi.core.lesson_status", "incomplete");
  }
  if (kept >= 1 && kept <= PAGES) status.textContent = "Reprise à la page " + kept + ".";
  show(kept >= 1 && kept <= PAGES ? kept : 1);

  previous.addEventListener("click", function () {
    show(page - 1);
  });
  next.addEventListener("click", function () {
    show(page + 1);
  });
  window.addEventListener("pagehide", function () {
    window.Scorm.finish();
  });
})();
