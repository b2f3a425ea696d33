// Runs before the app bundle (an external file: the CSP forbids inline scripts). It applies
// the stored skin and direction to <html> so the loading placeholder already matches them.
(function () {
  try {
    var root = document.documentElement;
    var skin = JSON.parse(localStorage.getItem('skin') || '"light"');
    if (['light', 'bordered', 'dark', 'semi-dark'].indexOf(skin) >= 0) root.setAttribute('data-skin', skin);
    if (skin === 'dark') root.setAttribute('data-mantine-color-scheme', 'dark');
    if (JSON.parse(localStorage.getItem('isRtl') || 'false') === true) root.setAttribute('dir', 'rtl');
  } catch {
    /* storage unavailable or corrupt: keep the defaults */
  }
})();
