// Keys for the judging page: a digit gives that grade, s skips, u undoes.
// The page works without it (buttons); nothing here talks to the network.
document.addEventListener('keydown', function (e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  var b = null;
  if (/^[0-9]$/.test(e.key)) b = document.querySelector('button[data-key="' + e.key + '"]');
  else if (e.key === 's') b = document.getElementById('skip');
  else if (e.key === 'u') b = document.getElementById('undo');
  if (b) { e.preventDefault(); b.click(); }
});
