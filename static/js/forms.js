// The forms' niceties and the other pages' small helps, on every page but the following ones
// (which load page.js alone): the hand form, the rules search, "who deals first", sending the
// result, a night's round clock. Every form works without this.
import { setUp as handForm } from "./hand-form.js";
import { dealerNames } from "./dealer.js";
import { roundClock } from "./clock.js";
import { searchAsYouType } from "./search.js";
import { shareResult } from "./result.js";

handForm();
dealerNames();
searchAsYouType();
shareResult();
roundClock();
document.addEventListener("scorekeeper:swapped", roundClock);
