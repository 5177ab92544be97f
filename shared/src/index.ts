export const hello = "x";
