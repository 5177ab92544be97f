import { describe, expect, it } from "vitest";
import {
  acumaticaPerTest,
  fieldValue,
  type Row,
  type RunningAcumatica,
} from "../../testing/acumatica-harness.ts";

const { signedIn } = acumaticaPerTest();

function stockItems(erp: RunningAcumatica) {
  return erp.catalog.acumatica.items.filter((item) => item.isStockItem);
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

describe("StorageDetailsInquiry", () => {
  it("returns every stock item in every warehouse in one call when WarehouseID is empty", async () => {
    const { erp, client } = await signedIn();
    const expected = stockItems(erp).flatMap((item) => item.warehouses);

    const result = await client.putJson<Row>(
      "/entity/Default/23.200.001/StorageDetailsInquiry?$expand=StorageDetails",
      {},
    );
    const rows = result.StorageDetails as Row[];

    expect(rows).toHaveLength(expected.length);
    expect(sum(rows.map((row) => Number(fieldValue(row, "QtyOnHand"))))).toBe(
      sum(expected.map((q) => q.onHand)),
    );
    expect(sum(rows.map((row) => Number(fieldValue(row, "QtyAvailable"))))).toBe(
      sum(expected.map((q) => q.available)),
    );
    expect(sum(rows.map((row) => Number(fieldValue(row, "QtyHardAvailable"))))).toBe(
      sum(expected.map((q) => q.availableForShipment)),
    );
  });

  it("filters by warehouse", async () => {
    const { erp, client } = await signedIn();

    const result = await client.putJson<Row>(
      "/entity/Default/23.200.001/StorageDetailsInquiry?$expand=StorageDetails",
      { WarehouseID: { value: "RETAIL" } },
    );
    const rows = result.StorageDetails as Row[];

    expect(fieldValue(result, "WarehouseID")).toBe("RETAIL");
    expect(rows).toHaveLength(stockItems(erp).length);
    expect(new Set(rows.map((row) => fieldValue(row, "WarehouseID")))).toEqual(new Set(["RETAIL"]));
  });

  it("uses the Site* field names before 23.200.001", async () => {
    const { client } = await signedIn();

    const result = await client.putJson<Row>(
      "/entity/Default/22.200.001/StorageDetailsInquiry?$expand=StorageDetails",
      { WarehouseID: { value: "WHOLESALE" } },
    );
    const [row] = result.StorageDetails as Row[];

    expect(Object.keys(row!)).toEqual(
      expect.arrayContaining([
        "SiteID",
        "SiteOnHand",
        "SiteAvailable",
        "SiteAvailableforShipping",
        "SiteLastModifiedDate",
      ]),
    );
    expect(row).not.toHaveProperty("QtyOnHand");
  });

  it("answers 500 when $expand names a detail the inquiry does not have", async () => {
    const { client } = await signedIn();

    const response = await client.request(
      "PUT",
      "/entity/Default/23.200.001/StorageDetailsInquiry?$expand=Results",
      {
        json: {},
      },
    );

    expect(response.status).toBe(500);
  });

  it("returns no rows unless the detail is expanded", async () => {
    const { client } = await signedIn();

    const result = await client.putJson<Row>("/entity/Default/23.200.001/StorageDetailsInquiry", {});

    expect(result).not.toHaveProperty("StorageDetails");
  });
});

describe("InventorySummaryInquiry", () => {
  it("gives one item's quantities per warehouse, then a total row with no warehouse, as IN401000 does", async () => {
    const { erp, client } = await signedIn();
    const item = stockItems(erp)[0]!;
    const stocked = item.warehouses.filter(
      (q) => q.onHand !== 0 || q.available !== 0 || q.availableForShipment !== 0,
    );

    const result = await client.putJson<Row>(
      "/entity/Default/20.200.001/InventorySummaryInquiry?$expand=Results",
      {
        InventoryID: { value: item.inventoryId },
      },
    );
    const rows = result.Results as Row[];

    expect(stocked.length).toBeGreaterThan(1);
    expect(
      rows.map((row) => [
        fieldValue(row, "WarehouseID"),
        fieldValue(row, "LocationID"),
        fieldValue(row, "QtyOnHand"),
        fieldValue(row, "QtyAvailable"),
        fieldValue(row, "QtyAvailableForShipment"),
      ]),
    ).toEqual([
      ...stocked.map((q) => [q.warehouseId, "R1S1", q.onHand, q.available, q.availableForShipment]),
      [
        undefined,
        "Total:",
        sum(stocked.map((q) => q.onHand)),
        sum(stocked.map((q) => q.available)),
        sum(stocked.map((q) => q.availableForShipment)),
      ],
    ]);
    expect(rows.at(-1)!.WarehouseID).toEqual({});
    expect(rows.at(-1)!.EstimatedUnitCost).toEqual({});
  });

  it("answers no rows at all, not even a total, for an item with nothing in any warehouse", async () => {
    const { erp, client } = await signedIn();
    const item = stockItems(erp)[2]!;
    for (const q of item.warehouses)
      await erp.setQuantities({
        inventoryId: item.inventoryId,
        warehouseId: q.warehouseId,
        onHand: 0,
        available: 0,
        availableForShipment: 0,
      });

    const result = await client.putJson<Row>(
      "/entity/Default/23.200.001/InventorySummaryInquiry?$expand=Results",
      { InventoryID: { value: item.inventoryId } },
    );

    expect(result.Results).toEqual([]);
  });

  it("answers 422 with a field error for an unknown item", async () => {
    const { client } = await signedIn();

    const response = await client.request(
      "PUT",
      "/entity/Default/23.200.001/InventorySummaryInquiry?$expand=Results",
      {
        json: { InventoryID: { value: "NO-SUCH-SKU" } },
      },
    );

    expect(response.status).toBe(422);
    expect(((await response.json()) as Row).InventoryID).toEqual({
      value: "NO-SUCH-SKU",
      error: "'Inventory ID' cannot be found in the system.",
    });
  });
});

describe("InventoryQuantityAvailable", () => {
  it("sums available quantities over warehouses for every item in one call", async () => {
    const { erp, client } = await signedIn();

    const result = await client.putJson<Row>(
      "/entity/Default/24.200.001/InventoryQuantityAvailable?$expand=Results",
      {},
    );
    const rows = result.Results as Row[];
    const byId = new Map(
      rows.map((row) => [fieldValue(row, "InventoryID"), fieldValue(row, "QtyAvailable")]),
    );

    expect(rows).toHaveLength(stockItems(erp).length);
    for (const item of stockItems(erp)) {
      expect(byId.get(item.inventoryId)).toBe(sum(item.warehouses.map((q) => q.available)));
    }
  });

  it("returns only items whose quantities changed since LastModifiedDateTime", async () => {
    const { erp, client } = await signedIn();
    const item = stockItems(erp)[2]!;
    // A moment after every seeded quantity, and a sandbox clock a day past it.
    const latest = Math.max(Date.now(), ...stockItems(erp).map((seeded) => Date.parse(seeded.lastModified)));
    const since = new Date(latest + 86_400_000).toISOString();
    await erp.advanceSeconds(Math.ceil((latest - Date.now()) / 1000) + 2 * 86_400);
    await client.login(); // the first session expired while the clock moved on
    await erp.setQuantities({
      inventoryId: item.inventoryId,
      warehouseId: "RETAIL",
      onHand: 9,
      available: 7,
      availableForShipment: 6,
    });

    const result = await client.putJson<Row>(
      "/entity/Default/23.200.001/InventoryQuantityAvailable?$expand=Results",
      {
        LastModifiedDateTime: { value: since },
      },
    );

    expect((result.Results as Row[]).map((row) => fieldValue(row, "InventoryID"))).toEqual([
      item.inventoryId,
    ]);
  });

  it("refuses a LastModifiedDateTime that is not on the calendar", async () => {
    const { client } = await signedIn();

    const response = await client.request(
      "PUT",
      "/entity/Default/23.200.001/InventoryQuantityAvailable?$expand=Results",
      { json: { LastModifiedDateTime: { value: "2026-02-30T10:00:00Z" } } },
    );

    expect(response.status).toBe(400);
  });

  it("does not exist before 22.200.001", async () => {
    const { client } = await signedIn();

    const response = await client.request(
      "PUT",
      "/entity/Default/20.200.001/InventoryQuantityAvailable?$expand=Results",
      {
        json: {},
      },
    );

    expect(response.status).toBe(404);
  });
});

describe("setQuantities", () => {
  it("changes what the inquiries report, without touching the item's LastModified", async () => {
    const { erp, client } = await signedIn();
    const item = stockItems(erp)[1]!;
    const before = await client.getJson<Row>(`/entity/Default/23.200.001/StockItem/${item.inventoryId}`);

    await erp.setQuantities({
      inventoryId: item.inventoryId,
      warehouseId: "WHOLESALE",
      onHand: 40,
      available: 31,
      availableForShipment: 30,
    });
    const result = await client.putJson<Row>(
      "/entity/Default/23.200.001/InventorySummaryInquiry?$expand=Results",
      {
        InventoryID: { value: item.inventoryId },
        WarehouseID: { value: "WHOLESALE" },
      },
    );
    const after = await client.getJson<Row>(`/entity/Default/23.200.001/StockItem/${item.inventoryId}`);
    const [row] = result.Results as Row[];

    expect([
      fieldValue(row!, "QtyOnHand"),
      fieldValue(row!, "QtyAvailable"),
      fieldValue(row!, "QtyAvailableForShipment"),
    ]).toEqual([40, 31, 30]);
    expect(fieldValue(after, "LastModified")).toBe(fieldValue(before, "LastModified"));
  });

  it("answers 400 to an unknown item or warehouse", async () => {
    const { erp } = await signedIn();
    const inventoryId = stockItems(erp)[0]!.inventoryId;
    const quantities = { onHand: 1, available: 1, availableForShipment: 1 };

    await expect(
      erp.setQuantities({ inventoryId: "NOPE", warehouseId: "RETAIL", ...quantities }),
    ).rejects.toThrow(/400.*NOPE/);
    await expect(erp.setQuantities({ inventoryId, warehouseId: "NOWHERE", ...quantities })).rejects.toThrow(
      /NOWHERE/,
    );
  });
});
