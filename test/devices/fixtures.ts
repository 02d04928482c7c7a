// A batch as the hosted service returns it with a device attached (facts of a real batch: `devices`
// holds an entry per device type; an iSpindel item keyed by its name in capitals, with offsets,
// lastLog and lastData), written here for the tests.
export const ATTACHED_BATCH_ID = "MdygaYwzcjEGmDTwQXJ4Wfhjbm0O8s";

export function attachedBatch(): Record<string, unknown> {
  return {
    _id: ATTACHED_BATCH_ID,
    name: "Batch",
    batchNo: 41,
    status: "Fermenting",
    devices: {
      gfcc: { enabled: false, items: [], brewDeviceId: null },
      iSpindel: {
        enabled: true,
        items: [
          {
            name: "Ispindel000",
            key: "ISPINDEL000",
            type: "iSpindel",
            batchId: ATTACHED_BATCH_ID,
            enabled: true,
            hidden: false,
            series: ["gravity", "temp"],
            lastLog: 1642865742755,
            lastData: { angle: 46.44819, type: "iSpindel", status: "success", id: "ISPINDEL000", battery: 3.800834, time: 1642865742908, temp: 20.1, rssi: -67, sg: 1.054 },
            settings: { gravityOffset: -6, tempOffset: null },
          },
        ],
      },
      tilt: { mode: "default", temp: true, items: [], enabled: true, gravity: true },
      stream: { items: [], enabled: true },
      plaatoAirlock: { enabled: true, items: [] },
    },
  };
}
