// "Poddaj grę": the button for a seated player while the game goes on, and the dialog
// that asks again (open while state.confirmSurrender is).
import { $ } from "../dom.js";
import { show } from "./parts.js";

export function draw(state) {
  const dialog = $("surrender-dialog");
  show($("surrender"), state.snap?.game.status === "playing" && state.snap.game.you !== null);
  if (state.confirmSurrender && !dialog.open) dialog.showModal();
  if (!state.confirmSurrender && dialog.open) dialog.close();
}
