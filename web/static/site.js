// Floorboard's web pages: keyboard stepping on a game page, and polling while a tournament round runs.
// The pages work without this file; it only adds the keys and the live refresh.
(function () {
  "use strict";
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !keys[event.key]) { return; }
    var target = document.querySelector('nav.steps a[rel="' + keys[event.key] + '"]');
    if (target) { event.preventDefault(); window.location.href = target.href; }
  });
  var live = document.body.getAttribute("data-live");
  if (!live) { return; }
  var seen = null;
  function poll() {
    fetch(live, { headers: { Accept: "application/json" } }).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (data) {
      if (!data) { return; }
      if (seen !== null && data.version !== seen) { window.location.reload(); return; }
      seen = data.version;
      if (data.running) { window.setTimeout(poll, 5000); }
    }).catch(function () { window.setTimeout(poll, 15000); });
  }
  poll();
})();
