import { BRAND_LETTER, PRODUCT_NAME } from "@stockbridge/shared";
import { useState } from "react";

/** The logo image, or the brand letter when the image cannot be loaded (spec section 1). */
export function BrandMark({ size = 32 }: { size?: number }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span
        aria-hidden="true"
        style={{ width: size, height: size }}
        className="inline-flex items-center justify-center rounded-lg bg-accent-600 text-base font-bold text-white"
      >
        {BRAND_LETTER}
      </span>
    );
  }
  return (
    <img
      src="/logo.svg"
      alt=""
      width={size}
      height={size}
      className="rounded-lg"
      onError={() => setFailed(true)}
    />
  );
}

export function BrandName() {
  return <span className="text-lg font-semibold tracking-tight text-gray-900">{PRODUCT_NAME}</span>;
}
