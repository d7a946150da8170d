// The offline page's retry: a script file, because the Content-Security-Policy (script-src 'self') blocks
// inline handlers. Reloading asks the network for the page the person was opening.
document.getElementById('retry')?.addEventListener('click', () => window.location.reload());
