(function () {
  "use strict";
  var done = document.getElementById("done");
  var exit = document.getElementById("exit");
  var status = document.getElementById("status");

  function say(text, kind) {
    status.textContent = text;
    status.className = "status" + (kind ? " " + kind : "");
  }

  window.Cmi5.start()
    .then(function () {
      done.disabled = false;
      if (window.Cmi5.progress.completed) say("Vous avez déjà terminé cette lecture.", "success");
    })
    .catch(function () {
      say("Cette page doit être ouverte depuis la plateforme de formation.", "error");
    });

  done.addEventListener("click", function () {
    done.disabled = true;
    window.Cmi5.completed()
      .then(function () {
        say("Lecture enregistrée. Vous pouvez passer au quiz.", "success");
        exit.hidden = false;
        exit.focus();
      })
      .catch(function () {
        done.disabled = false;
        say("L'enregistrement a échoué. Réessayez.", "error");
      });
  });

  exit.addEventListener("click", function () {
    window.Cmi5.exit();
  });
})();
