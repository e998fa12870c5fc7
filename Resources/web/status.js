// What the page says about the room and its connection, outside the canvas: the status line (the
// aria-live region), the offline badge, who else watches, a card held on another screen, an empty
// room's note, and the controls' state.

import { showRoomState } from './controls.js';
import { statusText } from './messages.js';
import { heldByOther, isEmptyRoom } from './scene.js';

/**
 * Shows `scene` in the page's elements; `offline` shows the badge. Text is written only when it
 * changes: writing the same text again into an aria-live region would not be a change.
 */
export function showStatus(elements, scene, { offline, viewer }) {
  const { statusLine, offlineBadge, presenceLine, heldNote, emptyNote, controls } = elements;
  const text = statusText(scene);
  if (statusLine.textContent !== text) statusLine.textContent = text;
  offlineBadge.hidden = !offline;
  const watching = scene.viewers > 1 ? `${scene.viewers} watching` : '';
  if (presenceLine.textContent !== watching) presenceLine.textContent = watching;
  heldNote.hidden = !heldByOther(scene, viewer);
  emptyNote.hidden = !isEmptyRoom(scene);
  elements.followFolderNote?.(!emptyNote.hidden);
  showRoomState(controls, scene);
}
