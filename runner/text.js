/* What the runner says on the page, in the page's language (English or Spanish). */

export const TEXT = {
  en: {
    toolbar: "Run this code", run: "Run", stop: "Stop", reset: "Reset", check: "Check",
    // The break toggle says what it does; aria-pressed (and a ✓, runner.css) says whether it is on.
    breakIt: "Break it",
    code: "Python code, editable", output: "Your run",
    loading: "Loading Python…", running: "Running…",
    download: "Downloading Python…", start: "Starting Python…", numpy: "Loading NumPy…",
    amount: (loaded, total) => (total ? `${mb(loaded)} of ${mb(total)} MB` : `${mb(loaded)} MB`), waiting: "Waiting for the run before…",
    done: "Done", error: "Raised an error", exited: (code) => `Exited with code ${code}`,
    ended: "; Python restarts on the next run", // after os._exit(): that Python is gone
    lines: (n) => (n === 0 ? "no output" : n === 1 ? "1 line of output" : `${n} lines of output`),
    earlier: "; an earlier block raised an error (see the output)",
    raisedBefore: "Earlier blocks that raised: ",
    stopped: "Stopped", restarting: "Stopped; Python restarts on the next run", failed: "Python could not start: ",
    truncated: "\n[output truncated: only the first 100,000 characters are shown]\n",
    stillRunning: "Output truncated at 100,000 characters; the program is still running. Stop ends it.",
    truncatedSummary: "output truncated at 100,000 characters",
    share: "Copy link", shareField: "Link to this page with your code",
    linkCopied: "Link copied: your code is in it, and nothing was sent anywhere",
    linkInField: "Copy the link from the field below", linkTooLong: "Too long to share as a link",
    fromLink: "Code from a link; Reset goes back to the page's code",
    linkOtherVersion: "This link's code was written for another version of this page: no block here matches it",
    linkUnreadable: "This link's code could not be read (was the link cut short?)",
    predictFirst: "First give your answer and choose how sure you are: then the answer unfolds.",
    needAnswer: "Write your answer first.", needChoice: "Choose an answer first.",
    needNumber: "Write one number (like 2, -0.5 or 1e-3).", needConfidence: "Choose how sure you are.",
    youPredicted: "You predicted", quoted: (text) => `“${text}”`,
    confidence: { sure: "sure", unsure: "unsure", guessing: "guessing" },
    graded: { right: "right", wrong: "wrong" },
    judged: { right: "Right: the blocks below show it.", wrong: "Wrong: now you know what to watch for when the blocks below run." },
    rightChoice: "the right answer",
    repairedBefore: (day) => `You repaired this break on ${day}. The editor shows its broken code again: Check judges what is in it.`,
    luckyGuess: "Right, though you were guessing: the blocks below show why it is so.",
    confidentMiss: "You were sure, and it was wrong: that is the surprise worth keeping. Expected failure mode, below, says why.",
    yourPredictions: "Your predictions for this page",
    // The fold (fold.js): what gives an answer away waits for the reader's predictions.
    foldedOutput: "Output with the break applied: folded until you commit this page's predictions or run the broken code.",
    foldedPicture: "Picture with the break applied: folded until you commit this page's predictions or run the broken code.",
    foldedSection: "Folded until you commit this page's predictions or run the broken code.",
    showAnyway: "Show me anyway",
    foldSetting: "Fold the answers on break pages until I predict (every page, in this browser)",
  },
  es: {
    toolbar: "Ejecutar este código", run: "Ejecutar", stop: "Detener", reset: "Restablecer", check: "Comprobar",
    // El interruptor dice lo que hace; aria-pressed (y una ✓, runner.css) dice si está activo.
    breakIt: "Romperlo",
    code: "Código Python, editable", output: "Tu ejecución",
    loading: "Cargando Python…", running: "Ejecutando…",
    download: "Descargando Python…", start: "Arrancando Python…", numpy: "Cargando NumPy…",
    amount: (loaded, total) => (total ? `${mb(loaded)} de ${mb(total)} MB` : `${mb(loaded)} MB`), waiting: "Esperando a la ejecución anterior…",
    done: "Listo", error: "Lanzó un error", exited: (code) => `Terminó con código ${code}`,
    ended: "; Python se reinicia en la próxima ejecución",
    lines: (n) => (n === 0 ? "sin salida" : n === 1 ? "1 línea de salida" : `${n} líneas de salida`),
    earlier: "; un bloque anterior lanzó un error (mira la salida)",
    raisedBefore: "Bloques anteriores que lanzaron un error: ",
    stopped: "Detenido", restarting: "Detenido; Python se reinicia en la próxima ejecución", failed: "Python no pudo arrancar: ",
    truncated: "\n[salida truncada: solo se muestran los primeros 100.000 caracteres]\n",
    stillRunning: "Salida truncada a 100.000 caracteres; el programa sigue ejecutándose. Detener lo termina.",
    truncatedSummary: "salida truncada a 100.000 caracteres",
    share: "Copiar enlace", shareField: "Enlace a esta página con tu código",
    linkCopied: "Enlace copiado: lleva tu código, y no se ha enviado nada a ningún sitio",
    linkInField: "Copia el enlace del campo de abajo", linkTooLong: "Demasiado largo para compartirlo como enlace",
    fromLink: "Código de un enlace; Restablecer vuelve al código de la página",
    linkOtherVersion: "El código de este enlace se escribió para otra versión de esta página: ningún bloque de aquí coincide",
    linkUnreadable: "No se pudo leer el código de este enlace (¿se cortó el enlace?)",
    predictFirst: "Primero da tu respuesta y elige cuánto confías en ella: después se despliega la respuesta.",
    needAnswer: "Escribe primero tu respuesta.", needChoice: "Elige primero una respuesta.",
    needNumber: "Escribe un número (como 2, -0.5 o 1e-3).", needConfidence: "Elige cuánto confías en ella.",
    youPredicted: "Predijiste", quoted: (text) => `«${text}»`,
    confidence: { sure: "mucha confianza", unsure: "poca confianza", guessing: "adivinando" },
    graded: { right: "acertaste", wrong: "fallaste" },
    judged: { right: "Acertaste: los bloques de abajo lo muestran.", wrong: "Fallaste: ahora sabes qué mirar cuando se ejecuten los bloques de abajo." },
    rightChoice: "la respuesta correcta",
    repairedBefore: (day) => `Reparaste esta rotura el ${day}. El editor vuelve a mostrar su código roto: Comprobar juzga lo que haya en él.`,
    luckyGuess: "Acertaste, aunque adivinabas: los bloques de abajo muestran por qué es así.",
    confidentMiss: "Confiabas mucho, y no era así: esa es la sorpresa que vale la pena recordar. Modo de fallo esperado, más abajo, explica por qué.",
    yourPredictions: "Tus predicciones para esta página",
    foldedOutput: "Salida con la rotura aplicada: plegada hasta que fijes las predicciones de esta página o ejecutes el código roto.",
    foldedPicture: "Imagen con la rotura aplicada: plegada hasta que fijes las predicciones de esta página o ejecutes el código roto.",
    foldedSection: "Plegado hasta que fijes las predicciones de esta página o ejecutes el código roto.",
    showAnyway: "Muéstramelo de todos modos",
    foldSetting: "Plegar las respuestas de las páginas de roturas hasta que prediga (en todas las páginas, en este navegador)",
  },
};

/* The page's language: its <html lang>, either "en" or "es". */
export function language() {
  return (document.documentElement.lang || "en").slice(0, 2) === "es" ? "es" : "en";
}

export function mb(bytes) {
  return (bytes / 1e6).toLocaleString(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}
