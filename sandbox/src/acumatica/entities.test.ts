import { describe, expect, it } from "vitest";
import {
  type AcumaticaClient,
  acumaticaPerTest,
  fieldValue,
  type Row,
  type RunningAcumatica,
} from "../../testing/acumatica-harness.ts";

const { signedIn } = acumaticaPerTest();

const V23 = "/entity/Default/23.200.001";

function stockIds(erp: RunningAcumatica): string[] {
  return erp.catalog.acumatica.items.filter((item) => item.isStockItem).map((item) => item.inventoryId);
}

describe("GET /StockItem", () => {
  it("pages with $top and $skip through every stock item exactly once", async () => {
    const { erp, client } = await signedIn();
    const seen: string[] = [];

    for (let skip = 0; ; skip += 25) {
      const page = await client.getJson<Row[]>(`${V23}/StockItem?$select=InventoryID&$top=25&$skip=${skip}`);
      seen.push(...page.map((row) => String(fieldValue(row, "InventoryID"))));
      if (page.length < 25) break;
    }

    expect(seen).toHaveLength(stockIds(erp).length);
    expect(new Set(seen)).toEqual(new Set(stockIds(erp)));
  });

  it("returns only the selected fields plus the system fields", async () => {
    const { client } = await signedIn();

    const [row] = await client.getJson<Row[]>(`${V23}/StockItem?$select=InventoryID,DefaultPrice&$top=1`);

    expect(Object.keys(row!).sort()).toEqual(
      ["DefaultPrice", "InventoryID", "_links", "custom", "id", "note", "rowNumber"].sort(),
    );
  });

  it("prints fields as value wrappers: six-decimal prices, dates with offset, empty fields as {}", async () => {
    const { client } = await signedIn();

    const response = await client.request("GET", `${V23}/StockItem?$top=1`);
    const text = await response.text();
    const [row] = JSON.parse(text) as Row[];

    expect(text).toMatch(/"DefaultPrice":\{"value":\d+\.\d{6}\}/);
    expect(fieldValue(row!, "LastModified")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?\+00:00$/);
    expect(row!.ABCCode).toEqual({});
    expect(row!.note).toEqual({ value: "" });
    expect(row!.custom).toEqual({});
    expect(row!.rowNumber).toBe(1);
    expect(row!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect((row!._links as { self: string }).self).toBe(`/acumatica${V23}/StockItem/${row!.id}`);
    expect(row!.WarehouseDetails).toBeUndefined();
  });

  it("returns WarehouseDetails (with QtyOnHand only) when expanded", async () => {
    const { erp, client } = await signedIn();
    const seed = erp.catalog.acumatica.items.find((item) => item.isStockItem)!;

    const [row] = await client.getJson<Row[]>(
      `${V23}/StockItem?$expand=WarehouseDetails&$filter=InventoryID eq '${seed.inventoryId}'`,
    );
    const details = row!.WarehouseDetails as Row[];

    expect(
      details.map((detail) => [fieldValue(detail, "WarehouseID"), fieldValue(detail, "QtyOnHand")]),
    ).toEqual(seed.warehouses.map((warehouse) => [warehouse.warehouseId, warehouse.onHand]));
    expect(details[0]).not.toHaveProperty("QtyAvailable");
  });

  it("has LastModifiedDateTime from 24.200.001 on and refuses it before", async () => {
    const { client } = await signedIn();

    const [v24] = await client.getJson<Row[]>("/entity/Default/24.200.001/StockItem?$top=1");
    const [v23] = await client.getJson<Row[]>(`${V23}/StockItem?$top=1`);
    const filterOn23 = await client.request(
      "GET",
      `${V23}/StockItem?$filter=${encodeURIComponent("LastModifiedDateTime gt datetimeoffset'2020-01-01T00:00:00Z'")}`,
    );

    expect(v24).toHaveProperty("LastModifiedDateTime");
    expect(v24).toHaveProperty("LastModified");
    expect(v23).not.toHaveProperty("LastModifiedDateTime");
    expect(filterOn23.status).toBe(500);
  });
});

describe("$filter", () => {
  async function ids(client: AcumaticaClient, filter: string, entity = "StockItem"): Promise<string[]> {
    const rows = await client.getJson<Row[]>(
      `${V23}/${entity}?$select=InventoryID&$filter=${encodeURIComponent(filter)}`,
    );
    return rows.map((row) => String(fieldValue(row, "InventoryID")));
  }

  it("compares numbers with gt/ge/lt/le and combines with and/or and parentheses", async () => {
    const { erp, client } = await signedIn();
    const stock = erp.catalog.acumatica.items.filter((item) => item.isStockItem);
    const expected = stock
      .filter(
        (item) =>
          (item.defaultPriceCents >= 5000 && item.defaultPriceCents < 8000) ||
          item.inventoryId.toUpperCase() === "DUP-ERP-1",
      )
      .map((item) => item.inventoryId);

    const found = await ids(
      client,
      "(DefaultPrice ge 50 and DefaultPrice lt 80) or InventoryID eq 'DUP-ERP-1'",
    );

    expect(new Set(found)).toEqual(new Set(expected));
  });

  it("matches strings ignoring case, with startswith, endswith and substringof", async () => {
    const { erp, client } = await signedIn();
    const all = stockIds(erp);

    expect(new Set(await ids(client, "startswith(InventoryID,'erp-only')"))).toEqual(
      new Set(all.filter((id) => id.startsWith("ERP-ONLY"))),
    );
    expect(new Set(await ids(client, "endswith(InventoryID,'-XL')"))).toEqual(
      new Set(all.filter((id) => id.endsWith("-XL"))),
    );
    expect(
      new Set(await ids(client, "substringof('-000', InventoryID) and InventoryID ne 'SKU-00001-S'")),
    ).toEqual(new Set(all.filter((id) => id.includes("-000") && id !== "SKU-00001-S")));
    expect(await ids(client, "InventoryID eq 'dup-erp-1'")).toEqual(["DUP-ERP-1", "Dup-Erp-1"]);
  });

  it("answers a batch of keys (InventoryID eq .. or ..) exactly as the comparisons would, ignoring case", async () => {
    const { erp, client } = await signedIn();
    const wanted = stockIds(erp)
      .filter((id) => id.startsWith("SKU-"))
      .slice(0, 40);
    const asked = [...wanted.map((id, index) => (index % 2 === 0 ? id.toLowerCase() : id)), "NO-SUCH-ITEM"];

    const found = await ids(client, asked.map((id) => `InventoryID eq '${id}'`).join(" or "));

    expect(new Set(found)).toEqual(new Set(wanted));
    // Both case-only twins, as one comparison finds them; another field in the mix still applies.
    expect(new Set(await ids(client, "InventoryID eq 'dup-erp-1' or InventoryID eq 'NO-SUCH'"))).toEqual(
      new Set(["DUP-ERP-1", "Dup-Erp-1"]),
    );
    expect(
      await ids(client, `InventoryID eq '${wanted[0]}' or Description eq 'no such description'`),
    ).toEqual([wanted[0]]);
  });

  it("compares dates with datetimeoffset'..' and date'..' literals", async () => {
    const { erp, client } = await signedIn();
    const stock = erp.catalog.acumatica.items.filter((item) => item.isStockItem);
    const pivot = [...stock].sort((a, b) => a.lastModified.localeCompare(b.lastModified))[10]!.lastModified;

    const after = await ids(client, `LastModified gt datetimeoffset'${pivot.replace("Z", "+00:00")}'`);
    const fromDate = await ids(client, "LastModified ge date'2026-10-01'");

    expect(new Set(after)).toEqual(
      new Set(stock.filter((item) => item.lastModified > pivot).map((item) => item.inventoryId)),
    );
    expect(fromDate).toHaveLength(stock.length);
  });

  it("refuses a datetimeoffset whose '+' was not URL-encoded (it arrives as a space)", async () => {
    const { client } = await signedIn();

    const response = await client.request(
      "GET",
      `${V23}/StockItem?$filter=LastModified gt datetimeoffset'2026-10-01T10:31:28.402+03:00'`,
    );

    expect(response.status).toBe(400);
  });

  it("refuses a date that is not on the calendar instead of rolling it into the next month", async () => {
    const { client } = await signedIn();

    const statuses = await Promise.all(
      [
        "datetimeoffset'2026-02-30T10:00:00Z'",
        "datetimeoffset'2026-04-31T00:00:00.000Z'",
        "date'2026-02-29'",
      ].map(
        async (literal) =>
          (
            await client.request(
              "GET",
              `${V23}/StockItem?$filter=${encodeURIComponent(`LastModified gt ${literal}`)}`,
            )
          ).status,
      ),
    );

    expect(statuses).toEqual([400, 400, 400]);
  });

  it("answers 400 for a filter that does not parse and 500 for an unknown field", async () => {
    const { client } = await signedIn();

    const syntax = await client.request(
      "GET",
      `${V23}/StockItem?$filter=${encodeURIComponent("InventoryID eq")}`,
    );
    const unknown = await client.request(
      "GET",
      `${V23}/StockItem?$filter=${encodeURIComponent("Nope eq 1")}`,
    );

    expect(syntax.status).toBe(400);
    expect(unknown.status).toBe(500);
  });
});

describe("NonStockItem", () => {
  it("has MSRP only from 22.200.001 and LastModifiedDateTime in every version", async () => {
    const { client } = await signedIn({ size: 200 });

    const [v20] = await client.getJson<Row[]>("/entity/Default/20.200.001/NonStockItem?$top=1");
    const [v22] = await client.getJson<Row[]>("/entity/Default/22.200.001/NonStockItem?$top=1");

    expect(v20).not.toHaveProperty("MSRP");
    expect(v20).toHaveProperty("LastModifiedDateTime");
    expect(v20).toHaveProperty("BaseUnit");
    expect(v22).toHaveProperty("MSRP");
  });
});

describe("GET /StockItem/{InventoryID}", () => {
  it("finds a record by its URL-encoded key and by its id", async () => {
    const { erp, client } = await signedIn();
    const inventoryId = stockIds(erp)[3]!;

    const byKey = await client.getJson<Row>(`${V23}/StockItem/${encodeURIComponent(inventoryId)}`);
    const byId = await client.getJson<Row>(`${V23}/StockItem/${byKey.id}`);

    expect(fieldValue(byKey, "InventoryID")).toBe(inventoryId);
    expect(byId.id).toBe(byKey.id);
  });

  it("answers a missing key with 500 NoEntitySatisfiesTheCondition", async () => {
    const { client } = await signedIn();

    const response = await client.request("GET", `${V23}/StockItem/NO-SUCH-SKU`);

    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      exceptionMessage: "No entity satisfies the condition.",
      exceptionType: "PX.Api.ContractBased.NoEntitySatisfiesTheConditionException",
    });
  });
});

describe("PUT /StockItem", () => {
  it("updates DefaultPrice and MSRP and moves LastModified", async () => {
    const { erp, client } = await signedIn();
    const inventoryId = stockIds(erp)[0]!;
    const before = await client.getJson<Row>(`${V23}/StockItem/${inventoryId}`);
    await erp.advanceSeconds(60);

    const saved = await client.putJson<Row>(`${V23}/StockItem`, {
      InventoryID: { value: inventoryId },
      DefaultPrice: { value: 12.34 },
      MSRP: { value: 19.99 },
    });
    const after = await client.getJson<Row>(`${V23}/StockItem/${inventoryId}`);

    expect([fieldValue(saved, "DefaultPrice"), fieldValue(saved, "MSRP")]).toEqual([12.34, 19.99]);
    expect([fieldValue(after, "DefaultPrice"), fieldValue(after, "MSRP")]).toEqual([12.34, 19.99]);
    expect(after.id).toBe(before.id);
    expect(Date.parse(String(fieldValue(after, "LastModified")))).toBeGreaterThan(
      Date.parse(String(fieldValue(before, "LastModified"))),
    );
  });

  it("answers 422 echoing the entity with an error on a bad price, and saves nothing", async () => {
    const { erp, client } = await signedIn();
    const inventoryId = stockIds(erp)[0]!;
    const before = await client.getJson<Row>(`${V23}/StockItem/${inventoryId}`);

    const response = await client.request("PUT", `${V23}/StockItem`, {
      json: {
        InventoryID: { value: inventoryId },
        DefaultPrice: { value: -5 },
        Description: { value: "Renamed" },
      },
    });
    const body = (await response.json()) as Row;
    const after = await client.getJson<Row>(`${V23}/StockItem/${inventoryId}`);

    expect(response.status).toBe(422);
    expect(body.DefaultPrice).toMatchObject({ value: -5, error: expect.stringContaining("Default Price") });
    expect(body.error).toMatch(/raised at least one error/);
    expect(fieldValue(after, "DefaultPrice")).toBe(fieldValue(before, "DefaultPrice"));
    expect(fieldValue(after, "Description")).toBe(fieldValue(before, "Description"));
  });

  it("inserts a record that does not exist, and refuses it with If-None-Match once it does", async () => {
    const { client } = await signedIn();
    const entity = {
      InventoryID: { value: "NEW-ITEM-1" },
      Description: { value: "New" },
      DefaultPrice: { value: 5 },
    };

    const created = await client.putJson<Row>(`${V23}/StockItem`, entity);
    const again = await client.request("PUT", `${V23}/StockItem`, {
      json: entity,
      headers: { "If-None-Match": "*" },
    });
    const listed = await client.getJson<Row[]>(`${V23}/StockItem?$filter=InventoryID eq 'NEW-ITEM-1'`);

    expect(fieldValue(created, "InventoryID")).toBe("NEW-ITEM-1");
    expect(again.status).toBe(412);
    expect(listed).toHaveLength(1);
  });

  it("answers 400 for an empty body and for a field that is not a value wrapper", async () => {
    const { client } = await signedIn();

    const empty = await client.request("PUT", `${V23}/StockItem`, { body: "" });
    const unwrapped = await client.request("PUT", `${V23}/StockItem`, {
      json: { InventoryID: "SKU-00001-S" },
    });

    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({
      message: "The request is invalid.",
      modelState: { "": ["The request body should not be empty."] },
    });
    expect(unwrapped.status).toBe(400);
  });
});

describe("GET /Warehouse", () => {
  it("lists the ERP warehouses", async () => {
    const { erp, client } = await signedIn();

    const rows = await client.getJson<Row[]>(`${V23}/Warehouse`);

    expect(rows.map((row) => fieldValue(row, "WarehouseID"))).toEqual(
      erp.catalog.acumatica.warehouses.map((warehouse) => warehouse.id),
    );
  });
});

describe("large catalogs", () => {
  it("serves a $top=1000 page from the middle of 100,000 items", async () => {
    const { client } = await signedIn({ size: 100_000 });

    const page = await client.getJson<Row[]>(
      `${V23}/StockItem?$select=InventoryID,DefaultPrice&$top=1000&$skip=50000`,
    );

    expect(page).toHaveLength(1000);
  });
});
