(function () {
  "use strict";
  function show(id) {
    var el = document.getElementById(id);
    if (!el) { return false; }
    for (var p = el.parentElement; p; p = p.parentElement) {
      if (p.tagName === "DETAILS") { p.open = true; }
    }
    var old = document.querySelectorAll(".hit");
    for (var i = 0; i < old.length; i++) { old[i].classList.remove("hit"); }
    var item = el.tagName === "LI";  /* an event or a finding: marked and centred; a section: its top */
    if (item) { el.classList.add("hit"); }
    el.scrollIntoView({block: item ? "center" : "start"});
    return true;
  }
  document.addEventListener("click", function (e) {
    var target = e.target;
    var a = target && target.closest ? target.closest("a") : null;
    if (!a) { return; }
    var href = a.getAttribute("href") || "";
    if (href.charAt(0) !== "#") { return; }
    if (show(href.slice(1))) {
      e.preventDefault();
      try { history.pushState(null, "", href); } catch (ignored) { /* a page opened from a file may refuse */ }
    }
  });
  window.addEventListener("popstate", function () {  /* Back: to where the link was followed from */
    if (location.hash.length > 1) { show(location.hash.slice(1)); }
  });
  var folds = document.getElementById("folds");  /* shown by the script that works them: inert without it */
  if (folds) { folds.hidden = false; }
  var all = document.querySelectorAll("button[data-fold]");
  for (var i = 0; i < all.length; i++) {
    all[i].addEventListener("click", function (e) {
      var open = e.currentTarget.getAttribute("data-fold") === "open";
      var rounds = document.querySelectorAll("details.round");
      for (var j = 0; j < rounds.length; j++) { rounds[j].open = open; }
    });
  }
  if (location.hash.length > 1) { show(location.hash.slice(1)); }
})();
