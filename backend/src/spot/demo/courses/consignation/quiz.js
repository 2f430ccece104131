(function () {
  "use strict";
  // The right answer of each question (docs/learning-platform.md lists them for the end-to-end test).
  var ANSWERS = { q1: "b", q2: "c", q3: "a", q4: "d", q5: "b" };
  var form = document.getElementById("quiz");
  var submit = document.getElementById("submit");
  var exit = document.getElementById("exit");
  var result = document.getElementById("result");

  function say(text, kind) {
    result.textContent = text;
    result.className = "status" + (kind ? " " + kind : "");
  }

  window.Cmi5.start()
    .then(function () {
      submit.disabled = false;
      if (window.Cmi5.progress.passed) {
        say("Vous avez déjà réussi ce quiz : vos nouvelles réponses ne changeront pas votre résultat.");
      }
    })
    .catch(function () {
      say("Ce quiz doit être ouvert depuis la plateforme de formation.", "error");
    });

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
      say("Répondez aux cinq questions avant de valider (question " + missing[0].slice(1) + ").", "error");
      document.getElementById(missing[0] + "-a").focus();
      return;
    }
    var right = 0;
    names.forEach(function (name) {
      var ok = chosen[name] === ANSWERS[name];
      if (ok) right += 1;
      var feedback = document.getElementById(name + "-feedback");
      feedback.textContent = ok ? "Bonne réponse." : "Mauvaise réponse.";
      feedback.className = "feedback " + (ok ? "correct" : "wrong");
    });
    var scaled = right / names.length;
    submit.disabled = true;
    Array.prototype.forEach.call(form.querySelectorAll("input"), function (input) {
      input.disabled = true;
    });
    var grade = (Math.round(scaled * 100) / 10).toLocaleString("fr-FR");
    var text = "Votre score : " + right + " / " + names.length + ", soit " + grade + " sur 10.";
    window.Cmi5.judged(scaled, right, names.length)
      .then(function (passed) {
        return window.Cmi5.completed().then(function () {
          return passed;
        });
      })
      .then(function (passed) {
        if (passed === null) say(text);
        else if (passed) say(text + " Quiz réussi.", "success");
        else say(text + " Quiz non réussi : relisez les bases puis réessayez.", "error");
        exit.hidden = false;
        exit.focus();
      })
      .catch(function () {
        say(text + " L'enregistrement du résultat a échoué.", "error");
      });
  });

  exit.addEventListener("click", function () {
    window.Cmi5.exit();
  });
})();
