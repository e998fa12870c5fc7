// The empty room's note names the photo folder, and says when it is missing or unreadable (a frame
// booted without its USB stick): read from /healthz when the note shows, and again every few
// seconds while it does, so the note changes when the stick is plugged in.

/** How often /healthz is asked while the empty note shows. */
export const FOLDER_NOTE_REFRESH_MS = 5000;

/** The note's line for a /healthz answer: where to copy photos, or why the folder is not there. */
export function folderNoteText(health) {
  const check = health?.checks?.photoFolder;
  if (!check || typeof check.folder !== 'string') return '';
  if (check.ok) return `The photo folder is ${check.folder}.`;
  return `The photo folder ${check.folder} is ${check.state}: plug in or mount it, and its photos appear `
    + 'here without a restart.';
}

/**
 * Keeps `element`'s text current while the empty note shows: call the function returned with
 * whether it shows, at each status change. `fetchHealth` answers the parsed /healthz (any status).
 */
export function followFolderNote(element, fetchHealth, { setTimer = setTimeout, clearTimer = clearTimeout } = {}) {
  let timer = null;
  const refresh = async () => {
    timer = setTimer(refresh, FOLDER_NOTE_REFRESH_MS);
    try {
      element.textContent = folderNoteText(await fetchHealth());
    } catch {
      // The server unreachable: the offline badge says so; the note keeps its last words.
    }
  };
  return (shown) => {
    if (shown && timer === null) refresh();
    if (!shown && timer !== null) {
      clearTimer(timer);
      timer = null;
    }
  };
}
