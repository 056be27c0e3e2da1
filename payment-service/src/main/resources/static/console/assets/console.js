// The console's only script: live updates of a payment page (server-sent events), and no double submit of a
// confirmation (the server's action key already makes a second submit do nothing; this only spares the request).
(function () {
  'use strict';

  function startLiveUpdates() {
    var live = document.getElementById('live');
    var status = document.getElementById('live-status');
    if (!live || !window.EventSource) {
      if (status) { status.textContent = 'Live updates unavailable: reload to see changes.'; }
      return;
    }
    var mark = live.getAttribute('data-mark');
    var sectionsUrl = live.getAttribute('data-sections');
    var source = new EventSource(live.getAttribute('data-live'));
    var loading = false;
    var pending = false;

    function refresh() {
      if (loading) { pending = true; return; }
      loading = true;
      fetch(sectionsUrl, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
        .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
        .then(function (html) {
          var holder = document.createElement('div');
          holder.innerHTML = html;
          var fresh = holder.querySelector('#live');
          if (fresh) {
            var focused = document.activeElement && document.activeElement.id;
            var typed = typedValues(live);
            live.innerHTML = fresh.innerHTML;
            restoreValues(live, typed);
            live.setAttribute('data-mark', fresh.getAttribute('data-mark'));
            if (focused && document.getElementById(focused)) { document.getElementById(focused).focus(); }
            status.textContent = 'Updated at ' + new Date().toISOString().substring(11, 19) + ' UTC.';
          }
        })
        .catch(function () { status.textContent = 'Could not load the latest changes: reload the page.'; })
        .then(function () {
          loading = false;
          if (pending) { pending = false; refresh(); }
        });
    }

    source.addEventListener('open', function () {
      status.setAttribute('data-state', 'open');
      status.textContent = 'Live: changes appear here as they happen.';
    });
    source.addEventListener('changed', function (event) {
      if (event.data !== mark) {
        mark = event.data;
        refresh();
      }
    });
    source.addEventListener('error', function () {
      status.setAttribute('data-state', 'reconnecting');
      status.textContent = 'Live updates reconnecting…';
    });
    window.addEventListener('pagehide', function () { source.close(); });
  }

  // What the operator has typed into the live part's forms (by field id), so an update never wipes it.
  function typedValues(root) {
    var typed = {};
    Array.prototype.forEach.call(root.querySelectorAll('input[id], select[id], textarea[id]'), function (field) {
      if (field.type !== 'hidden' && field.value !== field.defaultValue) { typed[field.id] = field.value; }
    });
    return typed;
  }

  function restoreValues(root, typed) {
    Object.keys(typed).forEach(function (id) {
      var field = document.getElementById(id);
      if (field && root.contains(field)) { field.value = typed[id]; }
    });
  }

  function oneSubmitPerForm() {
    var forms = document.querySelectorAll('form.confirm-form');
    Array.prototype.forEach.call(forms, function (form) {
      form.addEventListener('submit', function () {
        var button = form.querySelector('button[type=submit]');
        if (button) { button.disabled = true; button.textContent = 'Working…'; }
      });
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    startLiveUpdates();
    oneSubmitPerForm();
  });
})();
