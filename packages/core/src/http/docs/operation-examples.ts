/**
 * One example per operation of the public API: the request a client sends and the answer it gets.
 * The OpenAPI document shows them (`example` on parameters, bodies and the success response), and
 * packages/core/test/http/openapi-generators.test.ts sends every request through the real handler, in the order
 * of {@link EXAMPLE_ORDER}, checking the answer's status and shape against the example. Ids are
 * the ones a fresh Store would see; the test puts the ids its own run created in their place.
 */

/** The example of one operation. */
export interface OperationExample {
  /** Path parameters (resource ids). */
  readonly params?: Readonly<Record<string, number | string>>
  /** Query parameters. */
  readonly query?: Readonly<Record<string, string>>
  /** The `Idempotency-Key` sent with a write. */
  readonly idempotency_key?: string
  /** The request body, for operations that take one. */
  readonly body?: unknown
  /** The success status and body answered. */
  readonly status: number
  readonly response: unknown
}

/** The order the examples run in: each may use what the ones before it created. */
export const EXAMPLE_ORDER: ReadonlyArray<string> = [
  "health",
  "ready",
  "v3Stores.me",
  "v3Customisers.list",
  "v3Customisers.get",
  "v3Customisers.putPricing",
  "v3Customisers.getPricing",
  "v3Customisers.patchPricing",
  "v3Customisers.validatePricing",
  "v3Webhooks.createSubscription",
  "v3Webhooks.listSubscriptions",
  "v3Webhooks.getSubscription",
  "v3Webhooks.patchSubscription",
  "v3Webhooks.rotateSecret",
  "v3Commerce.createProduct",
  "v3Commerce.getProduct",
  "v3Commerce.createOrder",
  "v3Commerce.listOrders",
  "v3Commerce.getOrder",
  "v3Webhooks.listDeliveries",
  "v3Webhooks.redeliver",
  "v3Events.listEvents",
  "v3Events.getEvent",
  "v3Webhooks.resendEvent",
  "v3Webhooks.recover",
  "v3Webhooks.sendTestEvent",
  "v3Analytics.summary",
  "storefrontForms.submit",
  "v3Quotes.list",
  "storefrontDesigns.finishDesign",
  "v3Webhooks.listEventTypes",
  "v3Webhooks.deleteSubscription"
]

/** The example of every operation of the public API, by operationId; `{base_url}` stands for the deployment's. */
export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExample>> = {
  "v3Events.listEvents": {
    "query": {
      "limit": "20"
    },
    "status": 200,
    "response": {
      "data": [
        {
          "object": "event",
          "id": "evt_1",
          "type": "order:created",
          "created_at": "2026-11-28T22:23:47.762Z",
          "data": {
            "order": {
              "order_id": 1,
              "order_number": 1,
              "external_order_number": "#1042",
              "external_id": "gid://shop/Order/5531",
              "order_total": 29800,
              "app_total": 29800,
              "currency": "USD",
              "shipping_line": "standard",
              "billing_address": {
                "first_name": null,
                "last_name": null,
                "company": null,
                "address_1": null,
                "address_2": null,
                "city": null,
                "state": null,
                "postcode": null,
                "country": null,
                "phone": null,
                "email": null,
                "created_at": "2026-11-28T22:23:47.747000Z",
                "updated_at": "2026-11-28T22:23:47.747000Z"
              },
              "shipping_address": {
                "first_name": "Ada",
                "last_name": "Byron",
                "company": null,
                "address_1": "12 Harbour Street",
                "address_2": null,
                "city": "Bristol",
                "state": "Bristol",
                "postcode": "BS1 4RN",
                "country": "GB",
                "phone": null,
                "email": null,
                "created_at": "2026-11-28T22:23:47.747000Z",
                "updated_at": "2026-11-28T22:23:47.747000Z"
              },
              "customer": {
                "first_name": "Ada",
                "last_name": "Byron",
                "phone": null,
                "email": "ada@example.com",
                "external_id": null,
                "created_at": "2026-11-28T22:23:47.747000Z",
                "updated_at": "2026-11-28T22:23:47.747000Z"
              },
              "products": [
                {
                  "product_id": 1,
                  "title": "Neon sign \"Open late\"",
                  "description": "",
                  "description_html": "",
                  "external_id": "",
                  "external_data": {},
                  "price": 14900,
                  "compare_price": 14900,
                  "customiser_id": 1,
                  "logo_upload_id": null,
                  "product_image_url": "https://cdn.example.com/designs/8812.png",
                  "created_at": "2026-11-28T22:23:47.718000Z",
                  "updated_at": "2026-11-28T22:23:47.718000Z",
                  "uploads": [
                    {
                      "url": "https://cdn.example.com/designs/8812.png",
                      "type": "product_image",
                      "path": "/designs/8812.png"
                    }
                  ]
                }
              ],
              "created_at": "2026-11-28T22:23:47.747000Z",
              "updated_at": "2026-11-28T22:23:47.747000Z"
            }
          },
          "delivery_status": "pending"
        }
      ],
      "links": {
        "self": "{base_url}/api/v3/events?limit=20",
        "documentation": "{base_url}/docs"
      },
      "pagination": {
        "has_more": false
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_LTCVIn1b7cawajKayNTcE40r"
      }
    }
  },
  "v3Events.getEvent": {
    "params": {
      "event_id": "evt_1"
    },
    "status": 200,
    "response": {
      "data": {
        "object": "event",
        "id": "evt_1",
        "type": "order:created",
        "created_at": "2026-11-28T22:23:47.762Z",
        "data": {
          "order": {
            "order_id": 1,
            "order_number": 1,
            "external_order_number": "#1042",
            "external_id": "gid://shop/Order/5531",
            "order_total": 29800,
            "app_total": 29800,
            "currency": "USD",
            "shipping_line": "standard",
            "billing_address": {
              "first_name": null,
              "last_name": null,
              "company": null,
              "address_1": null,
              "address_2": null,
              "city": null,
              "state": null,
              "postcode": null,
              "country": null,
              "phone": null,
              "email": null,
              "created_at": "2026-11-28T22:23:47.747000Z",
              "updated_at": "2026-11-28T22:23:47.747000Z"
            },
            "shipping_address": {
              "first_name": "Ada",
              "last_name": "Byron",
              "company": null,
              "address_1": "12 Harbour Street",
              "address_2": null,
              "city": "Bristol",
              "state": "Bristol",
              "postcode": "BS1 4RN",
              "country": "GB",
              "phone": null,
              "email": null,
              "created_at": "2026-11-28T22:23:47.747000Z",
              "updated_at": "2026-11-28T22:23:47.747000Z"
            },
            "customer": {
              "first_name": "Ada",
              "last_name": "Byron",
              "phone": null,
              "email": "ada@example.com",
              "external_id": null,
              "created_at": "2026-11-28T22:23:47.747000Z",
              "updated_at": "2026-11-28T22:23:47.747000Z"
            },
            "products": [
              {
                "product_id": 1,
                "title": "Neon sign \"Open late\"",
                "description": "",
                "description_html": "",
                "external_id": "",
                "external_data": {},
                "price": 14900,
                "compare_price": 14900,
                "customiser_id": 1,
                "logo_upload_id": null,
                "product_image_url": "https://cdn.example.com/designs/8812.png",
                "created_at": "2026-11-28T22:23:47.718000Z",
                "updated_at": "2026-11-28T22:23:47.718000Z",
                "uploads": [
                  {
                    "url": "https://cdn.example.com/designs/8812.png",
                    "type": "product_image",
                    "path": "/designs/8812.png"
                  }
                ]
              }
            ],
            "created_at": "2026-11-28T22:23:47.747000Z",
            "updated_at": "2026-11-28T22:23:47.747000Z"
          }
        },
        "delivery_status": "pending"
      },
      "links": {
        "self": "{base_url}/api/v3/events/evt_1",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_lY0jo5aUm6rh997maehnZIgV"
      }
    }
  },
  "v3Webhooks.resendEvent": {
    "params": {
      "webhook_id": 1,
      "event_id": "evt_1"
    },
    "status": 202,
    "response": {
      "data": {
        "object": "webhook_delivery",
        "id": 1,
        "subscription_id": 1,
        "message_id": "evt_1",
        "webhook_id": "evt_1",
        "event_id": 1,
        "topic": "order:created",
        "status": "pending",
        "trigger": "manual",
        "attempt_count": 0,
        "next_attempt_at": "2026-11-28T22:23:47.889Z",
        "delivered_at": null,
        "last_error": null,
        "created_at": "2026-11-28T22:23:47.762Z",
        "attempts": []
      },
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions/1/events/evt_1/resend",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_bErtESDbWVpTESGtMI4YBFuS"
      }
    }
  },
  "v3Webhooks.recover": {
    "params": {
      "webhook_id": 1
    },
    "body": {
      "since": "2026-11-28T00:00:00Z"
    },
    "status": 202,
    "response": {
      "data": {
        "object": "webhook_recovery",
        "recovered": 1
      },
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions/1/recover",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_UhasgIbiyfuxB0JkibM9Rme5"
      }
    }
  },
  "v3Webhooks.sendTestEvent": {
    "params": {
      "webhook_id": 1
    },
    "status": 202,
    "response": {
      "data": {
        "object": "webhook_delivery",
        "id": 4,
        "subscription_id": 1,
        "message_id": "evt_2",
        "webhook_id": "evt_2",
        "event_id": 2,
        "topic": "webhook:test",
        "status": "pending",
        "trigger": "manual",
        "attempt_count": 0,
        "next_attempt_at": "2026-11-28T22:23:47.919Z",
        "delivered_at": null,
        "last_error": null,
        "created_at": "2026-11-28T22:23:47.919Z",
        "attempts": []
      },
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions/1/test",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_Ksca44IR8TD167va4OQpDMoD"
      }
    }
  },
  "health": {
    "status": 200,
    "response": {
      "status": "ok"
    }
  },
  "ready": {
    "status": 200,
    "response": {
      "status": "ready"
    }
  },
  "v3Stores.me": {
    "status": 200,
    "response": {
      "data": {
        "object": "store",
        "id": 1,
        "name": "Shop",
        "platform": "custom",
        "currency": "USD",
        "mode": "test",
        "scopes": [
          "store:read",
          "customisers:read",
          "pricing:read",
          "pricing:write",
          "products:read",
          "products:write",
          "orders:read",
          "orders:write",
          "analytics:read",
          "quotes:read",
          "webhooks:read",
          "webhooks:write"
        ]
      },
      "links": {
        "self": "{base_url}/api/v3/stores/me",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_A63rBKuXoU8OVWniW5G6Z0QS"
      }
    }
  },
  "v3Customisers.list": {
    "query": {
      "limit": "20"
    },
    "status": 200,
    "response": {
      "data": [
        {
          "object": "customiser",
          "id": 1,
          "name": "Neon sign",
          "pricing_model": "simple_letter",
          "product_family": "neon",
          "selection_mode": "single_style",
          "active": true,
          "created_at": "2026-11-28T22:23:47.439Z",
          "updated_at": "2026-11-28T22:23:47.439Z"
        }
      ],
      "links": {
        "self": "{base_url}/api/v3/customisers?limit=20",
        "documentation": "{base_url}/docs"
      },
      "pagination": {
        "has_more": false
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_gaRlgzra0HCK7KL6sgPUkkad"
      }
    }
  },
  "v3Customisers.get": {
    "params": {
      "customiser_id": 1
    },
    "status": 200,
    "response": {
      "data": {
        "object": "customiser",
        "id": 1,
        "name": "Neon sign",
        "pricing_model": "simple_letter",
        "product_family": "neon",
        "selection_mode": "single_style",
        "active": true,
        "created_at": "2026-11-28T22:23:47.439Z",
        "updated_at": "2026-11-28T22:23:47.439Z"
      },
      "links": {
        "self": "{base_url}/api/v3/customisers/1",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_VAGqmEJPG7euwd1eTyo0OwnV"
      }
    }
  },
  "v3Customisers.putPricing": {
    "params": {
      "customiser_id": 1
    },
    "body": {
      "sizes": [
        {
          "client_key": "small",
          "name": "Small",
          "char_limit": 20,
          "line_limit": 2,
          "min_char": 1,
          "width_cm": 50,
          "height_cm": 10,
          "line_height_cm": 5,
          "sizing_strategy": "fixed_width",
          "height_measurement_mode": "line_height"
        }
      ],
      "base_pricing": {
        "mode": "included_in_price_lists",
        "rows": []
      },
      "price_lists": [
        {
          "name": "Standard",
          "letter_pricing_method": "fixed_letter",
          "rows": [
            {
              "size_key": "small",
              "base_price": {
                "line_1": 1000,
                "line_2": 1500
              },
              "letter_price": {
                "line_1": 200,
                "line_2": 250
              }
            }
          ]
        }
      ]
    },
    "idempotency_key": "5f0c2a9e-8d4b-4f7e-a1c3-6b2d9e8f7a10",
    "status": 200,
    "response": {
      "data": {
        "object": "pricing",
        "pricing_model": "simple_letter",
        "pricing_model_display_name": "Simple letter",
        "currency": "USD",
        "customiser_id": 1,
        "sizes": [
          {
            "size_id": 1,
            "client_key": "small",
            "name": "Small",
            "char_limit": 20,
            "line_limit": 2,
            "min_char": 1,
            "width_cm": 50,
            "height_cm": 10,
            "line_height_cm": 5,
            "sizing_strategy": "fixed_width",
            "height_measurement_mode": "line_height"
          }
        ],
        "base_pricing": {
          "mode": "included_in_price_lists",
          "rows": []
        },
        "price_lists": [
          {
            "price_list_id": 2,
            "name": "Standard",
            "letter_pricing_method": "fixed_letter",
            "rows": [
              {
                "size_key": "small",
                "base_price": {
                  "line_1": 1000,
                  "line_2": 1500
                },
                "letter_price": {
                  "line_1": 200,
                  "line_2": 250
                }
              }
            ]
          }
        ]
      },
      "links": {
        "self": "{base_url}/api/v3/customisers/1/pricing",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_4As2ttGdwHI6qlyMAYUxJxWT"
      }
    }
  },
  "v3Customisers.getPricing": {
    "params": {
      "customiser_id": 1
    },
    "status": 200,
    "response": {
      "data": {
        "object": "pricing",
        "pricing_model": "simple_letter",
        "pricing_model_display_name": "Simple letter",
        "currency": "USD",
        "customiser_id": 1,
        "sizes": [
          {
            "size_id": 1,
            "client_key": "small",
            "name": "Small",
            "char_limit": 20,
            "line_limit": 2,
            "min_char": 1,
            "width_cm": 50,
            "height_cm": 10,
            "line_height_cm": 5,
            "sizing_strategy": "fixed_width",
            "height_measurement_mode": "line_height"
          }
        ],
        "base_pricing": {
          "mode": "included_in_price_lists",
          "rows": []
        },
        "price_lists": [
          {
            "price_list_id": 2,
            "name": "Standard",
            "letter_pricing_method": "fixed_letter",
            "rows": [
              {
                "size_key": "small",
                "base_price": {
                  "line_1": 1000,
                  "line_2": 1500
                },
                "letter_price": {
                  "line_1": 200,
                  "line_2": 250
                }
              }
            ]
          }
        ]
      },
      "links": {
        "self": "{base_url}/api/v3/customisers/1/pricing",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_w4W6fKKhEyro2Cm7V2fShbxm"
      }
    }
  },
  "v3Customisers.patchPricing": {
    "params": {
      "customiser_id": 1
    },
    "body": {
      "price_lists": [
        {
          "name": "Standard",
          "letter_pricing_method": "fixed_letter",
          "rows": [
            {
              "size_key": "small",
              "base_price": {
                "line_1": 1100,
                "line_2": 1600
              },
              "letter_price": {
                "line_1": 200,
                "line_2": 250
              }
            }
          ]
        }
      ]
    },
    "idempotency_key": "9a3e7c21-4b6d-4e8f-b2a5-1c7d3f9e6b42",
    "status": 200,
    "response": {
      "data": {
        "object": "pricing",
        "pricing_model": "simple_letter",
        "pricing_model_display_name": "Simple letter",
        "currency": "USD",
        "customiser_id": 1,
        "sizes": [
          {
            "size_id": 1,
            "client_key": "small",
            "name": "Small",
            "char_limit": 20,
            "line_limit": 2,
            "min_char": 1,
            "width_cm": 50,
            "height_cm": 10,
            "line_height_cm": 5,
            "sizing_strategy": "fixed_width",
            "height_measurement_mode": "line_height"
          }
        ],
        "base_pricing": {
          "mode": "included_in_price_lists",
          "rows": []
        },
        "price_lists": [
          {
            "price_list_id": 3,
            "name": "Standard",
            "letter_pricing_method": "fixed_letter",
            "rows": [
              {
                "size_key": "small",
                "base_price": {
                  "line_1": 1100,
                  "line_2": 1600
                },
                "letter_price": {
                  "line_1": 200,
                  "line_2": 250
                }
              }
            ]
          }
        ]
      },
      "links": {
        "self": "{base_url}/api/v3/customisers/1/pricing",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_pJqo6iyah8yZpeHLUmBHCgv6"
      }
    }
  },
  "v3Customisers.validatePricing": {
    "params": {
      "customiser_id": 1
    },
    "body": {
      "sizes": [
        {
          "client_key": "small",
          "name": "Small",
          "char_limit": 20,
          "line_limit": 2,
          "min_char": 1,
          "width_cm": 50,
          "height_cm": 10,
          "line_height_cm": 5,
          "sizing_strategy": "fixed_width",
          "height_measurement_mode": "line_height"
        }
      ],
      "base_pricing": {
        "mode": "included_in_price_lists",
        "rows": []
      },
      "price_lists": [
        {
          "name": "Standard",
          "letter_pricing_method": "fixed_letter",
          "rows": [
            {
              "size_key": "small",
              "base_price": {
                "line_1": 1000,
                "line_2": 1500
              },
              "letter_price": {
                "line_1": 200,
                "line_2": 250
              }
            }
          ]
        }
      ]
    },
    "status": 200,
    "response": {
      "data": {
        "object": "pricing_validation",
        "valid": true,
        "pricing": {
          "object": "pricing",
          "pricing_model": "simple_letter",
          "pricing_model_display_name": "Simple letter",
          "currency": "USD",
          "customiser_id": 1,
          "sizes": [
            {
              "size_id": 4,
              "client_key": "small",
              "name": "Small",
              "char_limit": 20,
              "line_limit": 2,
              "min_char": 1,
              "width_cm": 50,
              "height_cm": 10,
              "line_height_cm": 5,
              "sizing_strategy": "fixed_width",
              "height_measurement_mode": "line_height"
            }
          ],
          "base_pricing": {
            "mode": "included_in_price_lists",
            "rows": []
          },
          "price_lists": [
            {
              "price_list_id": 5,
              "name": "Standard",
              "letter_pricing_method": "fixed_letter",
              "rows": [
                {
                  "size_key": "small",
                  "base_price": {
                    "line_1": 1000,
                    "line_2": 1500
                  },
                  "letter_price": {
                    "line_1": 200,
                    "line_2": 250
                  }
                }
              ]
            }
          ]
        }
      },
      "links": {
        "self": "{base_url}/api/v3/customisers/1/pricing/validate",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_H80RAsePTpa9mL4qJPWL3sPU"
      }
    }
  },
  "v3Webhooks.createSubscription": {
    "body": {
      "topic": "order:created",
      "url": "https://hooks.example.com/signcraft"
    },
    "idempotency_key": "3c8f1b7e-6a2d-4d95-9e04-5b1a7c3f2e68",
    "status": 201,
    "response": {
      "data": {
        "object": "webhook_subscription",
        "id": 1,
        "topic": "order:created",
        "url": "https://hooks.example.com/signcraft/orders",
        "status": "active",
        "disabled_reason": null,
        "signature_scheme": "signcraft",
        "created_at": "2026-11-28T22:23:47.653Z",
        "updated_at": "2026-11-28T22:23:47.653Z",
        "secret": "whsec_cW14TEvSiaqc8zHixfXLhWpAQiTYmLq8"
      },
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_gmVOAYP3mUBV70Y2rfaEtqa8"
      }
    }
  },
  "v3Webhooks.listSubscriptions": {
    "query": {
      "limit": "20"
    },
    "status": 200,
    "response": {
      "data": [
        {
          "object": "webhook_subscription",
          "id": 1,
          "topic": "order:created",
          "url": "https://hooks.example.com/signcraft/orders",
          "status": "active",
          "disabled_reason": null,
          "signature_scheme": "signcraft",
          "created_at": "2026-11-28T22:23:47.653Z",
          "updated_at": "2026-11-28T22:23:47.653Z"
        }
      ],
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions?limit=20",
        "documentation": "{base_url}/docs"
      },
      "pagination": {
        "has_more": false
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_dbKCQH5ryCyDSr59UMpLjmJO"
      }
    }
  },
  "v3Webhooks.getSubscription": {
    "params": {
      "webhook_id": 1
    },
    "status": 200,
    "response": {
      "data": {
        "object": "webhook_subscription",
        "id": 1,
        "topic": "order:created",
        "url": "https://hooks.example.com/signcraft/orders",
        "status": "active",
        "disabled_reason": null,
        "signature_scheme": "signcraft",
        "created_at": "2026-11-28T22:23:47.653Z",
        "updated_at": "2026-11-28T22:23:47.653Z"
      },
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions/1",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_ZPWUfrO5HEDttOgKErTWeTVs"
      }
    }
  },
  "v3Webhooks.patchSubscription": {
    "params": {
      "webhook_id": 1
    },
    "body": {
      "url": "https://hooks.example.com/signcraft/orders"
    },
    "status": 200,
    "response": {
      "data": {
        "object": "webhook_subscription",
        "id": 1,
        "topic": "order:created",
        "url": "https://hooks.example.com/signcraft/orders",
        "status": "active",
        "disabled_reason": null,
        "signature_scheme": "signcraft",
        "created_at": "2026-11-28T22:23:47.653Z",
        "updated_at": "2026-11-28T22:23:47.690Z"
      },
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions/1",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_50u9khDo2N4jzTdjAw2NL5bU"
      }
    }
  },
  "v3Webhooks.rotateSecret": {
    "params": {
      "webhook_id": 1
    },
    "status": 200,
    "response": {
      "data": {
        "object": "webhook_subscription",
        "id": 1,
        "topic": "order:created",
        "url": "https://hooks.example.com/signcraft/orders",
        "status": "active",
        "disabled_reason": null,
        "signature_scheme": "signcraft",
        "created_at": "2026-11-28T22:23:47.653Z",
        "updated_at": "2026-11-28T22:23:47.695Z",
        "secret": "whsec_FxL1qDlWqStJfkC2eI9jt60uIzwvsdMo",
        "previous_secret_expires_at": "2026-11-29T22:23:47.695Z"
      },
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions/1/rotate-secret",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_2xKnUAwRqaqsB2LL4b2CfsLS"
      }
    }
  },
  "v3Commerce.createProduct": {
    "params": {
      "customiser_id": 1
    },
    "body": {
      "integration_id": 1,
      "store_product_id": "gid://shop/Product/8812",
      "title": "Neon sign \"Open late\"",
      "price_amount": 14900,
      "currency": "USD",
      "width_cm": 80,
      "height_cm": 25,
      "customisations": [
        {
          "key": "text",
          "label": "Text",
          "value": "Open late"
        },
        {
          "key": "colour",
          "label": "Colour",
          "value": "Warm white"
        }
      ],
      "artwork": {
        "preview_image_url": "https://cdn.example.com/designs/8812.png"
      }
    },
    "idempotency_key": "b7d41e0a-2c9f-4a63-8e15-7f3b2d6c9a84",
    "status": 201,
    "response": {
      "data": {
        "object": "product",
        "id": 1,
        "customiser_id": 1,
        "integration_id": 1,
        "store_product_id": "gid://shop/Product/8812",
        "title": "Neon sign \"Open late\"",
        "price_amount": 14900,
        "currency": "USD",
        "width_cm": 80,
        "height_cm": 25,
        "customisations": [
          {
            "key": "text",
            "label": "Text",
            "value": "Open late"
          },
          {
            "key": "colour",
            "label": "Colour",
            "value": "Warm white"
          }
        ],
        "artwork": {
          "preview_image_url": "https://cdn.example.com/designs/8812.png"
        },
        "created_at": "2026-11-28T22:23:47.718Z"
      },
      "links": {
        "self": "{base_url}/api/v3/products/1",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_ifJkSoWFOkGFhcnAZSl1dqkF"
      }
    }
  },
  "v3Commerce.getProduct": {
    "params": {
      "product_id": 1
    },
    "status": 200,
    "response": {
      "data": {
        "object": "product",
        "id": 1,
        "customiser_id": 1,
        "integration_id": 1,
        "store_product_id": "gid://shop/Product/8812",
        "title": "Neon sign \"Open late\"",
        "price_amount": 14900,
        "currency": "USD",
        "width_cm": 80,
        "height_cm": 25,
        "customisations": [
          {
            "key": "text",
            "label": "Text",
            "value": "Open late"
          },
          {
            "key": "colour",
            "label": "Colour",
            "value": "Warm white"
          }
        ],
        "artwork": {
          "preview_image_url": "https://cdn.example.com/designs/8812.png"
        },
        "created_at": "2026-11-28T22:23:47.718Z"
      },
      "links": {
        "self": "{base_url}/api/v3/products/1",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_vPh6bpCwvplHtQdtazO2KRE1"
      }
    }
  },
  "v3Commerce.createOrder": {
    "body": {
      "integration_id": 1,
      "store_order_id": "gid://shop/Order/5531",
      "store_order_number": "#1042",
      "total_amount": 29800,
      "currency": "USD",
      "shipping_method": "standard",
      "customer": {
        "first_name": "Ada",
        "last_name": "Byron",
        "email": "ada@example.com",
        "phone": null
      },
      "shipping_address": {
        "first_name": "Ada",
        "last_name": "Byron",
        "address_1": "12 Harbour Street",
        "city": "Bristol",
        "province": "Bristol",
        "postcode": "BS1 4RN",
        "country": "GB"
      },
      "line_items": [
        {
          "product_id": 1,
          "quantity": 2
        }
      ]
    },
    "idempotency_key": "order-gid-shop-Order-5531",
    "status": 201,
    "response": {
      "data": {
        "object": "order",
        "id": 1,
        "status": "received",
        "integration_id": 1,
        "store_order_id": "gid://shop/Order/5531",
        "store_order_number": "#1042",
        "total_amount": 29800,
        "currency": "USD",
        "shipping_method": "standard",
        "customer": {
          "first_name": "Ada",
          "last_name": "Byron",
          "email": "ada@example.com",
          "phone": null
        },
        "billing_address": null,
        "shipping_address": {
          "first_name": "Ada",
          "last_name": "Byron",
          "address_1": "12 Harbour Street",
          "city": "Bristol",
          "province": "Bristol",
          "postcode": "BS1 4RN",
          "country": "GB"
        },
        "line_items": [
          {
            "product_id": 1,
            "quantity": 2,
            "unit_price_amount": 14900,
            "currency": "USD",
            "title": "Neon sign \"Open late\""
          }
        ],
        "created_at": "2026-11-28T22:23:47.747Z"
      },
      "links": {
        "self": "{base_url}/api/v3/orders/1",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_qF6vkznSD8dk97K7GmMGCu8G"
      }
    }
  },
  "v3Commerce.listOrders": {
    "query": {
      "limit": "20"
    },
    "status": 200,
    "response": {
      "data": [
        {
          "object": "order",
          "id": 1,
          "status": "received",
          "integration_id": 1,
          "store_order_id": "gid://shop/Order/5531",
          "store_order_number": "#1042",
          "total_amount": 29800,
          "currency": "USD",
          "shipping_method": "standard",
          "customer": {
            "first_name": "Ada",
            "last_name": "Byron",
            "email": "ada@example.com",
            "phone": null
          },
          "billing_address": null,
          "shipping_address": {
            "first_name": "Ada",
            "last_name": "Byron",
            "address_1": "12 Harbour Street",
            "city": "Bristol",
            "province": "Bristol",
            "postcode": "BS1 4RN",
            "country": "GB"
          },
          "line_items": [
            {
              "product_id": 1,
              "quantity": 2,
              "unit_price_amount": 14900,
              "currency": "USD",
              "title": "Neon sign \"Open late\""
            }
          ],
          "created_at": "2026-11-28T22:23:47.747Z"
        }
      ],
      "links": {
        "self": "{base_url}/api/v3/orders?limit=20",
        "documentation": "{base_url}/docs"
      },
      "pagination": {
        "has_more": false
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_7Zhp01YsKgTO4bp1igL5nvHf"
      }
    }
  },
  "v3Commerce.getOrder": {
    "params": {
      "order_id": 1
    },
    "status": 200,
    "response": {
      "data": {
        "object": "order",
        "id": 1,
        "status": "received",
        "integration_id": 1,
        "store_order_id": "gid://shop/Order/5531",
        "store_order_number": "#1042",
        "total_amount": 29800,
        "currency": "USD",
        "shipping_method": "standard",
        "customer": {
          "first_name": "Ada",
          "last_name": "Byron",
          "email": "ada@example.com",
          "phone": null
        },
        "billing_address": null,
        "shipping_address": {
          "first_name": "Ada",
          "last_name": "Byron",
          "address_1": "12 Harbour Street",
          "city": "Bristol",
          "province": "Bristol",
          "postcode": "BS1 4RN",
          "country": "GB"
        },
        "line_items": [
          {
            "product_id": 1,
            "quantity": 2,
            "unit_price_amount": 14900,
            "currency": "USD",
            "title": "Neon sign \"Open late\""
          }
        ],
        "created_at": "2026-11-28T22:23:47.747Z"
      },
      "links": {
        "self": "{base_url}/api/v3/orders/1",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_UNwQ7yKpEF3NrwKrB2NCWOSh"
      }
    }
  },
  "v3Webhooks.listDeliveries": {
    "params": {
      "webhook_id": 1
    },
    "query": {
      "limit": "20"
    },
    "status": 200,
    "response": {
      "data": [
        {
          "object": "webhook_delivery",
          "id": 1,
          "subscription_id": 1,
          "message_id": "evt_1",
          "webhook_id": "evt_1",
          "event_id": 1,
          "topic": "order:created",
          "status": "pending",
          "trigger": "scheduled",
          "attempt_count": 0,
          "next_attempt_at": "2026-11-28T22:23:47.762Z",
          "delivered_at": null,
          "last_error": null,
          "created_at": "2026-11-28T22:23:47.762Z",
          "attempts": []
        }
      ],
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions/1/deliveries?limit=20",
        "documentation": "{base_url}/docs"
      },
      "pagination": {
        "has_more": false
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_V8QekUEYoyW4KLT2CA6TlNKx"
      }
    }
  },
  "v3Webhooks.redeliver": {
    "params": {
      "webhook_id": 1,
      "delivery_id": 1
    },
    "status": 202,
    "response": {
      "data": {
        "object": "webhook_delivery",
        "id": 1,
        "subscription_id": 1,
        "message_id": "evt_1",
        "webhook_id": "evt_1",
        "event_id": 1,
        "topic": "order:created",
        "status": "pending",
        "trigger": "manual",
        "attempt_count": 0,
        "next_attempt_at": "2026-11-28T22:23:47.866Z",
        "delivered_at": null,
        "last_error": null,
        "created_at": "2026-11-28T22:23:47.762Z",
        "attempts": []
      },
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions/1/deliveries/1/redeliver",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_EpUCNhgpo7U0UmVVZbQy2HWR"
      }
    }
  },
  "v3Analytics.summary": {
    "query": {
      "period": "30d"
    },
    "status": 200,
    "response": {
      "data": {
        "object": "analytics_summary",
        "period": "30d",
        "starts_at": "2026-10-29T00:00:00.000Z",
        "ends_before": "2026-11-28T00:00:00.000Z",
        "order_count": 0,
        "product_count": 0,
        "revenue": []
      },
      "links": {
        "self": "{base_url}/api/v3/analytics/summary?period=30d",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_0jppYzQZoNR1SeqoRR3aCh3Q"
      }
    }
  },
  "storefrontForms.submit": {
    "params": {
      "customiser_id": 1
    },
    "body": {
      "responses": [
        {
          "field_id": "email",
          "name": "Email",
          "input_type": "email",
          "value": "ada@example.com"
        },
        {
          "field_id": "message",
          "name": "Message",
          "input_type": "textarea",
          "value": "A 1 m sign for a shop front?"
        }
      ]
    },
    "status": 201,
    "response": {
      "quote_id": 1
    }
  },
  "v3Quotes.list": {
    "query": {
      "limit": "20"
    },
    "status": 200,
    "response": {
      "data": [
        {
          "object": "quote",
          "id": 1,
          "customiser_id": 1,
          "form_id": null,
          "submission_number": 1,
          "responses": [
            {
              "field_id": "email",
              "name": "Email",
              "input_type": "email",
              "value": "ada@example.com"
            },
            {
              "field_id": "message",
              "name": "Message",
              "input_type": "textarea",
              "value": "A 1 m sign for a shop front?"
            }
          ],
          "created_at": "2026-11-28T22:23:47.963Z"
        }
      ],
      "links": {
        "self": "{base_url}/api/v3/quotes?limit=20",
        "documentation": "{base_url}/docs"
      },
      "pagination": {
        "has_more": false
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_6tibYigQGYKPm8rS5NANxx0j"
      }
    }
  },
  "storefrontDesigns.finishDesign": {
    "params": {
      "customiser_id": 1
    },
    "body": {
      "integration_id": 1,
      "title": "Neon sign \"Open late\"",
      "price": 14900,
      "currency": "USD",
      "customisations": [
        {
          "key": "text",
          "label": "Text",
          "value": "Open late"
        }
      ],
      "product_image_url": "https://cdn.example.com/designs/8813.png"
    },
    "status": 201,
    "response": {
      "product_id": 2,
      "external_id": "shop_prod_1"
    }
  },
  "v3Webhooks.listEventTypes": {
    "status": 200,
    "response": {
      "data": [
        {
          "object": "webhook_event_type",
          "topic": "product:created",
          "deprecated": false,
          "deprecated_on": null,
          "description": "A shopper finished a design: the product was recorded. Body: `product`. Integration receivers answer 200 with `{external_id}`.",
          "example": {
            "product": {
              "product_id": 1001,
              "title": "Custom neon sign: Open Late",
              "description": "Pink neon, 60 cm wide",
              "description_html": "<p>Pink neon, 60 cm wide</p>",
              "external_id": "gid://shop/Product/555",
              "external_data": {},
              "price": 24900,
              "compare_price": 29900,
              "customiser_id": 42,
              "logo_upload_id": null,
              "product_image_url": "https://cdn.example.com/designs/1001/preview.png",
              "created_at": "2026-03-01T12:00:00.000000Z",
              "updated_at": "2026-03-01T12:00:00.000000Z",
              "uploads": [
                {
                  "url": "https://cdn.example.com/designs/1001/preview.png",
                  "type": "product_image"
                }
              ]
            }
          },
          "signature_schemes": [
            {
              "scheme": "signcraft",
              "headers": [
                "x-webhook-id",
                "x-webhook-topic",
                "x-webhook-timestamp",
                "x-webhook-signature",
                "x-webhook-signature-next"
              ],
              "signed_content": "{x-webhook-timestamp}.{raw body}",
              "signature": "lowercase hex HMAC-SHA256 keyed with the secret's text; x-webhook-signature-next carries the new secret's during the 24 hours after a rotation",
              "secret": "whsec_ followed by 32 base62 characters, used as it is"
            },
            {
              "scheme": "standard",
              "headers": [
                "webhook-id",
                "webhook-timestamp",
                "webhook-signature",
                "x-webhook-topic"
              ],
              "signed_content": "{webhook-id}.{webhook-timestamp}.{raw body}",
              "signature": "v1,<base64 HMAC-SHA256>, space-separated when two secrets sign during a rotation (Standard Webhooks 1.0)",
              "secret": "whsec_ followed by the base64 of 32 random bytes; the key is those bytes"
            }
          ]
        },
        {
          "object": "webhook_event_type",
          "topic": "order:created",
          "deprecated": false,
          "deprecated_on": null,
          "description": "The service recorded a completed order of the Store. Body: `order`.",
          "example": {
            "order": {
              "order_id": 5001,
              "order_number": 17,
              "external_order_number": "#1017",
              "external_id": "gid://shop/Order/777",
              "order_total": 27400,
              "app_total": 24900,
              "currency": "USD",
              "shipping_line": "Standard",
              "billing_address": {
                "first_name": "Ada",
                "last_name": "Lovelace",
                "company": null,
                "address_1": "1 Analytical Way",
                "address_2": null,
                "city": "London",
                "state": "Greater London",
                "postcode": "N1 9GU",
                "country": "GB",
                "phone": null,
                "email": "ada@example.com",
                "created_at": "2026-03-01T12:00:00.000000Z",
                "updated_at": "2026-03-01T12:00:00.000000Z"
              },
              "shipping_address": {
                "first_name": "Ada",
                "last_name": "Lovelace",
                "company": null,
                "address_1": "1 Analytical Way",
                "address_2": null,
                "city": "London",
                "state": "Greater London",
                "postcode": "N1 9GU",
                "country": "GB",
                "phone": null,
                "email": "ada@example.com",
                "created_at": "2026-03-01T12:00:00.000000Z",
                "updated_at": "2026-03-01T12:00:00.000000Z"
              },
              "customer": {
                "first_name": "Ada",
                "last_name": "Lovelace",
                "phone": null,
                "email": "ada@example.com",
                "external_id": "cust_1",
                "created_at": "2026-03-01T12:00:00.000000Z",
                "updated_at": "2026-03-01T12:00:00.000000Z"
              },
              "products": [
                {
                  "product_id": 1001,
                  "title": "Custom neon sign: Open Late",
                  "description": "Pink neon, 60 cm wide",
                  "description_html": "<p>Pink neon, 60 cm wide</p>",
                  "external_id": "gid://shop/Product/555",
                  "external_data": {},
                  "price": 24900,
                  "compare_price": 29900,
                  "customiser_id": 42,
                  "logo_upload_id": null,
                  "product_image_url": "https://cdn.example.com/designs/1001/preview.png",
                  "created_at": "2026-03-01T12:00:00.000000Z",
                  "updated_at": "2026-03-01T12:00:00.000000Z",
                  "uploads": [
                    {
                      "url": "https://cdn.example.com/designs/1001/preview.png",
                      "type": "product_image",
                      "path": "designs/1001/preview.png"
                    }
                  ]
                }
              ],
              "created_at": "2026-03-01T12:00:00.000000Z",
              "updated_at": "2026-03-01T12:00:00.000000Z"
            }
          },
          "signature_schemes": [
            {
              "scheme": "signcraft",
              "headers": [
                "x-webhook-id",
                "x-webhook-topic",
                "x-webhook-timestamp",
                "x-webhook-signature",
                "x-webhook-signature-next"
              ],
              "signed_content": "{x-webhook-timestamp}.{raw body}",
              "signature": "lowercase hex HMAC-SHA256 keyed with the secret's text; x-webhook-signature-next carries the new secret's during the 24 hours after a rotation",
              "secret": "whsec_ followed by 32 base62 characters, used as it is"
            },
            {
              "scheme": "standard",
              "headers": [
                "webhook-id",
                "webhook-timestamp",
                "webhook-signature",
                "x-webhook-topic"
              ],
              "signed_content": "{webhook-id}.{webhook-timestamp}.{raw body}",
              "signature": "v1,<base64 HMAC-SHA256>, space-separated when two secrets sign during a rotation (Standard Webhooks 1.0)",
              "secret": "whsec_ followed by the base64 of 32 random bytes; the key is those bytes"
            }
          ]
        },
        {
          "object": "webhook_event_type",
          "topic": "form:submitted",
          "deprecated": true,
          "deprecated_on": "2026-08-24",
          "description": "Deprecated. Deprecated on 24 August 2026; still fires on every new form submission with an unchanged payload, no removal date. A shopper submitted a form. Body: `form_submission`, which has no stable id: read quotes with GET /api/v3/quotes and deduplicate on the quote id.",
          "example": {
            "form_submission": {
              "submission_number": 1,
              "type": "custom_form_submission",
              "form": {
                "form_id": 42,
                "customiser_id": 42,
                "label": "Neon sign quote",
                "description": "",
                "email": "",
                "subject": "",
                "created_at": "2026-03-01T12:00:00.000000Z",
                "updated_at": "2026-03-01T12:00:00.000000Z"
              },
              "responses": [
                {
                  "field_id": "email",
                  "value": "ada@example.com",
                  "name": "Email",
                  "input_type": "EMAIL"
                },
                {
                  "field_id": "message",
                  "value": "Can you do 2 m wide?",
                  "name": "Message",
                  "input_type": "TEXTAREA"
                }
              ],
              "created_at": "2026-03-01T12:00:00.000000Z"
            }
          },
          "signature_schemes": [
            {
              "scheme": "signcraft",
              "headers": [
                "x-webhook-id",
                "x-webhook-topic",
                "x-webhook-timestamp",
                "x-webhook-signature",
                "x-webhook-signature-next"
              ],
              "signed_content": "{x-webhook-timestamp}.{raw body}",
              "signature": "lowercase hex HMAC-SHA256 keyed with the secret's text; x-webhook-signature-next carries the new secret's during the 24 hours after a rotation",
              "secret": "whsec_ followed by 32 base62 characters, used as it is"
            },
            {
              "scheme": "standard",
              "headers": [
                "webhook-id",
                "webhook-timestamp",
                "webhook-signature",
                "x-webhook-topic"
              ],
              "signed_content": "{webhook-id}.{webhook-timestamp}.{raw body}",
              "signature": "v1,<base64 HMAC-SHA256>, space-separated when two secrets sign during a rotation (Standard Webhooks 1.0)",
              "secret": "whsec_ followed by the base64 of 32 random bytes; the key is those bytes"
            }
          ]
        },
        {
          "object": "webhook_event_type",
          "topic": "webhook:test",
          "deprecated": false,
          "deprecated_on": null,
          "description": "Sent only by POST /api/v3/webhook-subscriptions/{webhook_id}/test, to that subscription alone, signed like any other delivery; no subscription can choose it. Body: `webhook_test`.",
          "example": {
            "webhook_test": {
              "subscription_id": 7,
              "topic": "order:created",
              "url": "https://example.com/hooks/orders"
            }
          },
          "signature_schemes": [
            {
              "scheme": "signcraft",
              "headers": [
                "x-webhook-id",
                "x-webhook-topic",
                "x-webhook-timestamp",
                "x-webhook-signature",
                "x-webhook-signature-next"
              ],
              "signed_content": "{x-webhook-timestamp}.{raw body}",
              "signature": "lowercase hex HMAC-SHA256 keyed with the secret's text; x-webhook-signature-next carries the new secret's during the 24 hours after a rotation",
              "secret": "whsec_ followed by 32 base62 characters, used as it is"
            },
            {
              "scheme": "standard",
              "headers": [
                "webhook-id",
                "webhook-timestamp",
                "webhook-signature",
                "x-webhook-topic"
              ],
              "signed_content": "{webhook-id}.{webhook-timestamp}.{raw body}",
              "signature": "v1,<base64 HMAC-SHA256>, space-separated when two secrets sign during a rotation (Standard Webhooks 1.0)",
              "secret": "whsec_ followed by the base64 of 32 random bytes; the key is those bytes"
            }
          ]
        }
      ],
      "links": {
        "self": "{base_url}/api/v3/webhook-event-types",
        "documentation": "{base_url}/docs"
      },
      "pagination": {
        "has_more": false
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_t17AiImXjVzHMnz24bu1wm3n"
      }
    }
  },
  "v3Webhooks.deleteSubscription": {
    "params": {
      "webhook_id": 1
    },
    "status": 200,
    "response": {
      "data": {
        "object": "webhook_subscription",
        "id": 1,
        "deleted": true
      },
      "links": {
        "self": "{base_url}/api/v3/webhook-subscriptions/1",
        "documentation": "{base_url}/docs"
      },
      "meta": {
        "api_version": "v3",
        "request_id": "req_FLJGjToihnMQ0oiCUqc8C99y"
      }
    }
  }
}
