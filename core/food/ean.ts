/** The EAN-13 check digit of the first twelve digits (GS1: weights 1,3,1,3,… from the left). */
export function ean13CheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

export function isValidEan13(ean: string): boolean {
  return /^\d{13}$/.test(ean) && ean13CheckDigit(ean.slice(0, 12)) === Number(ean[12]);
}
