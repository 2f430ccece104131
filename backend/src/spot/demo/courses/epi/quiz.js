(function () {
  "use strict";
  // The right answer of each question (docs/learning-platform.md lists them for the end-to-end test).
  var ANSWERS = { q1: "b", q2: "a", q3: "d", q4: "c" };
  var MASTERY = 75;
  var form = document.getElementById("quiz");
  var submit = document.getElementById("submit");
  var result = document.getElementById("result");

  function say(text, kind) {
    result.textContent = text;
    result.className = "status" + (kind ? " " + kind : "");
  }

  if (!window.Scorm.start()) say("Ce quiz doit être ouvert depuis la plateforme de formation.", "error");

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var names = Object.keys(ANSWERS);
    var chosen = {};
    var missing = names.filter(function (name) {
      var checked = form.querySelector('input[name="' + name + '"]:checked');
      chosen[name] = checked ? checked.value : null;
      return !checked;
    });
    if (missing.length) {
      say("Répondez aux quatre questions avant de valider (question " + missing[0].slice(1) + ").", "error");
      document.getElementById(missing[0] + "-a").focus();
      return;
    }
    var right = 0;
    names.forEach(function (name, index) {
      var ok = chosen[name] === ANSWERS[name];
      if (ok) right += 1;
      var feedback = document.getElementById(name + "-feedback");
      feedback.textContent = ok ? "Bonne réponse." : "Mauvaise réponse.";
      feedback.className = "feedback " + (ok ? "correct" : "wrong");
      var prefix = "cmi.interactions." + index + ".";
      window.Scorm.set(prefix + "id", name);
      window.Scorm.set(prefix + "type", "choice");
      window.Scorm.set(prefix + "student_response", chosen[name]);
      window.Scorm.set(prefix + "result", ok ? "correct" : "wrong");
    });
    var raw = Math.round((right / names.length) * 100);
    var passed = raw >= MASTERY;
    window.Scorm.set("cmi.core.score.min", 0);
    window.Scorm.set("cmi.core.score.max", 100);
    window.Scorm.set("cmi.core.score.raw", raw);
    window.Scorm.set("cmi.core.lesson_status", passed ? "passed" : "failed");
    window.Scorm.set("cmi.core.exit", "");
    var saved = window.Scorm.commit();
    submit.disabled = true;
    Array.prototype.forEach.call(form.querySelectorAll("input"), function (input) {
      input.disabled = true;
    });
    var text = "Votre score : " + right + " / " + names.length + ", soit " + (raw / 10).toLocaleString("fr-FR") + " sur 10.";
    if (!saved) say(text + " L'enregistrement du résultat a échoué.", "error");
    else if (passed) say(text + " Quiz réussi.", "success");
    else say(text + " Quiz non réussi : relisez le module puis réessayez.", "error");
    window.Scorm.finish();
  });
})();
