// The page's "Loading…" notice while its scripts load; if they cannot (a script missing, refused or
// failing as it starts), the notice is replaced by what happened and what to do, rather than staying
// on the page. A classic script, run before the page's module: it watches that module load.
(function () {
  'use strict';
  var page = document.querySelector('script[type=module]');
  var failed = function (what) {
    var notice = document.querySelector('#app .loading');
    if (!notice) return; // the page has loaded: its own errors are its own to show
    notice.className = 'loading error';
    notice.setAttribute('role', 'alert');
    notice.textContent =
      'The page could not be loaded: ' + what + '. Reload it; if this stays, look at the log of' +
      ' `legio serve` and check that the page is served by this version of Legio.';
  };
  if (page) {
    page.addEventListener('error', function () {
      failed('one of its scripts could not be fetched (' + page.src + ' or a script it imports)');
    });
  }
  window.addEventListener('error', function (event) {
    failed('a script failed as it started (' + (event.message || 'an error') + ')');
  });
})();
