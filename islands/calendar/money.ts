// Money for people, as the server writes it (views.Money): roubles with a
// narrow no-break space between thousands, kopecks only when there are any,
// then a no-break space and "₽". Written out by hand rather than with
// Intl.NumberFormat: the first number formatter a page makes loads the
// locale's number data, which held the calendar's start for 5-20 ms on this
// machine (several times that on a slow phone), and the server's narrow
// space is not the one Intl's "ru-RU" puts between thousands.

const NNBSP = "\u202f";

function groups(n: number): string {
  const s = String(n);
  let out = "";
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += NNBSP;
    out += s[i];
  }
  return out;
}

/** "1 500 ₽", "1 234 567,50 ₽", "−2 200 ₽". */
export function rubles(v: number): string {
  const cents = Math.round(Math.abs(v) * 100);
  const kop = cents % 100;
  let out = groups(Math.floor(cents / 100));
  if (kop !== 0) out += "," + String(kop).padStart(2, "0");
  return (v < 0 && cents !== 0 ? "−" : "") + out + "\u00a0₽";
}

/** A price in thousands of roubles to one decimal, for the calendar's short
 *  note under a day: 16 300 → "16,3", 16 000 → "16", 950 → "1". */
export function thousands(v: number): string {
  const tenths = Math.round(Math.abs(v) / 100);
  const whole = Math.floor(tenths / 10);
  const rest = tenths % 10;
  return (v < 0 && tenths !== 0 ? "−" : "") + groups(whole) + (rest ? "," + rest : "");
}
