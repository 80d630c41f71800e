// Generated from docs/openapi.json by Tests/schema/sync_spec.py; edit the JSON and rerun the script.

/// The OpenAPI 3.1 description of the API, served at `GET /api/openapi.json`.
enum OpenAPISpec {
    static let bytes: [UInt8] = Array(text.utf8)

    static let text = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Switchyard",
            "version": "0.1.0",
            "summary": "Server-authoritative navigation: one navigation engine per session behind HTTP.",
            "description": "The REST API of Switchyard. The contract of the state document is docs/state-document.md. Errors are `application/problem+json`. Every path answers 405 with `Allow` for other methods (HEAD is accepted wherever GET is); the HTTP layer answers 413 for bodies over its limit and 414 for request targets over its limit."
          },
          "servers": [
            {
              "url": "/"
            }
          ],
          "tags": [
            {
              "name": "sessions",
              "description": "Sessions and their navigation state."
            },
            {
              "name": "meta",
              "description": "The app catalog, this document, health and metrics."
            }
          ],
          "paths": {
            "/api/sessions": {
              "post": {
                "operationId": "createSession",
                "tags": [
                  "sessions"
                ],
                "summary": "Start a session",
                "description": "Starts a session of an app (default: the server's first app) and answers its state document.",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/IdempotencyKey"
                  }
                ],
                "requestBody": {
                  "required": false,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/CreateSessionRequest"
                      }
                    }
                  },
                  "description": "Optional; an empty body starts the default app."
                },
                "responses": {
                  "201": {
                    "description": "Created.",
                    "headers": {
                      "Location": {
                        "$ref": "#/components/headers/Location"
                      },
                      "ETag": {
                        "$ref": "#/components/headers/ETag"
                      },
                      "Idempotent-Replayed": {
                        "$ref": "#/components/headers/IdempotentReplayed"
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StateDocument"
                        }
                      }
                    },
                    "links": {
                      "GetSession": {
                        "operationId": "getSession",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "GetSessionIfNoneMatch": {
                        "operationId": "getSession",
                        "parameters": {
                          "id": "$response.body#/session",
                          "header.If-None-Match": "$response.header.ETag"
                        }
                      },
                      "DeleteSession": {
                        "operationId": "deleteSession",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "PostTransitions": {
                        "operationId": "postTransitions",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "PostTransitionsIfMatch": {
                        "operationId": "postTransitions",
                        "parameters": {
                          "id": "$response.body#/session",
                          "header.If-Match": "$response.header.ETag"
                        }
                      },
                      "PostEvent": {
                        "operationId": "postEvent",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "OpenDeepLink": {
                        "operationId": "openDeepLink",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "GetHistory": {
                        "operationId": "getHistory",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Malformed body, or no app of that name (`choices` lists the apps).",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "$ref": "#/components/schemas/APIProblem"
                        }
                      }
                    }
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "413": {
                    "$ref": "#/components/responses/ContentTooLarge"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  },
                  "415": {
                    "$ref": "#/components/responses/UnsupportedMediaType"
                  },
                  "422": {
                    "description": "An `Idempotency-Key` reused with a different request, or a string in the body over the field limit (`fieldTooLong`).",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "$ref": "#/components/schemas/APIProblem"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "This client address created its limit of sessions in the last minute (`code` `tooManyCreations`); `Retry-After` says when the next one is allowed.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "$ref": "#/components/schemas/APIProblem"
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  },
                  "503": {
                    "description": "The server holds its maximum of live sessions; `Retry-After` is the time until the first one expires.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "$ref": "#/components/schemas/APIProblem"
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  }
                }
              }
            },
            "/api/sessions/{id}": {
              "parameters": [
                {
                  "$ref": "#/components/parameters/SessionId"
                }
              ],
              "get": {
                "operationId": "getSession",
                "tags": [
                  "sessions"
                ],
                "summary": "The state document",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/IfNoneMatch"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The state document.",
                    "headers": {
                      "ETag": {
                        "$ref": "#/components/headers/ETag"
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StateDocument"
                        }
                      }
                    }
                  },
                  "304": {
                    "description": "Unchanged since the ETag in `If-None-Match`.",
                    "headers": {
                      "ETag": {
                        "$ref": "#/components/headers/ETag"
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  }
                }
              },
              "delete": {
                "operationId": "deleteSession",
                "tags": [
                  "sessions"
                ],
                "summary": "End a session",
                "description": "Ends the session and closes its streams.",
                "responses": {
                  "204": {
                    "description": "Ended."
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  }
                }
              }
            },
            "/api/sessions/{id}/transitions": {
              "post": {
                "operationId": "postTransitions",
                "tags": [
                  "sessions"
                ],
                "summary": "Apply a step or a chain of steps",
                "description": "One step (`{\"action\": \"push\", \"route\": \"todo\", \"input\": \"42\"}`) or a chain `{coordinator?, steps, expectedVersion?}`; steps apply in order, each to the coordinator the previous returned, atomically.",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/SessionId"
                  },
                  {
                    "$ref": "#/components/parameters/IfMatch"
                  },
                  {
                    "$ref": "#/components/parameters/IdempotencyKey"
                  },
                  {
                    "$ref": "#/components/parameters/Prefer"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/TransitionRequest"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Applied: the new state document with `result`.",
                    "headers": {
                      "ETag": {
                        "$ref": "#/components/headers/ETag"
                      },
                      "Idempotent-Replayed": {
                        "$ref": "#/components/headers/IdempotentReplayed"
                      },
                      "Preference-Applied": {
                        "$ref": "#/components/headers/PreferenceApplied"
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/ChangeDocument"
                            },
                            {
                              "$ref": "#/components/schemas/SummaryDocument"
                            }
                          ]
                        }
                      }
                    },
                    "links": {
                      "GetSession": {
                        "operationId": "getSession",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "GetSessionIfNoneMatch": {
                        "operationId": "getSession",
                        "parameters": {
                          "id": "$response.body#/session",
                          "header.If-None-Match": "$response.header.ETag"
                        }
                      },
                      "DeleteSession": {
                        "operationId": "deleteSession",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "PostTransitions": {
                        "operationId": "postTransitions",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "PostTransitionsIfMatch": {
                        "operationId": "postTransitions",
                        "parameters": {
                          "id": "$response.body#/session",
                          "header.If-Match": "$response.header.ETag"
                        }
                      },
                      "PostEvent": {
                        "operationId": "postEvent",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "OpenDeepLink": {
                        "operationId": "openDeepLink",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "GetHistory": {
                        "operationId": "getHistory",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  },
                  "412": {
                    "$ref": "#/components/responses/PreconditionFailed"
                  },
                  "413": {
                    "$ref": "#/components/responses/ContentTooLarge"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  },
                  "415": {
                    "$ref": "#/components/responses/UnsupportedMediaType"
                  },
                  "422": {
                    "$ref": "#/components/responses/UnprocessableContent"
                  }
                }
              }
            },
            "/api/sessions/{id}/events": {
              "post": {
                "operationId": "postEvent",
                "tags": [
                  "sessions"
                ],
                "summary": "Send a flow event",
                "description": "Sends a flow event from an item or coordinator (default: the visible item); its coordinator and then each parent may handle it.",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/SessionId"
                  },
                  {
                    "$ref": "#/components/parameters/IfMatch"
                  },
                  {
                    "$ref": "#/components/parameters/IdempotencyKey"
                  },
                  {
                    "$ref": "#/components/parameters/Prefer"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/EventRequest"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Applied: the new state document with `result`.",
                    "headers": {
                      "ETag": {
                        "$ref": "#/components/headers/ETag"
                      },
                      "Idempotent-Replayed": {
                        "$ref": "#/components/headers/IdempotentReplayed"
                      },
                      "Preference-Applied": {
                        "$ref": "#/components/headers/PreferenceApplied"
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/ChangeDocument"
                            },
                            {
                              "$ref": "#/components/schemas/SummaryDocument"
                            }
                          ]
                        }
                      }
                    },
                    "links": {
                      "GetSession": {
                        "operationId": "getSession",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "GetSessionIfNoneMatch": {
                        "operationId": "getSession",
                        "parameters": {
                          "id": "$response.body#/session",
                          "header.If-None-Match": "$response.header.ETag"
                        }
                      },
                      "DeleteSession": {
                        "operationId": "deleteSession",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "PostTransitions": {
                        "operationId": "postTransitions",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "PostTransitionsIfMatch": {
                        "operationId": "postTransitions",
                        "parameters": {
                          "id": "$response.body#/session",
                          "header.If-Match": "$response.header.ETag"
                        }
                      },
                      "PostEvent": {
                        "operationId": "postEvent",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "OpenDeepLink": {
                        "operationId": "openDeepLink",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "GetHistory": {
                        "operationId": "getHistory",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  },
                  "412": {
                    "$ref": "#/components/responses/PreconditionFailed"
                  },
                  "413": {
                    "$ref": "#/components/responses/ContentTooLarge"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  },
                  "415": {
                    "$ref": "#/components/responses/UnsupportedMediaType"
                  },
                  "422": {
                    "$ref": "#/components/responses/UnprocessableContent"
                  }
                }
              }
            },
            "/api/sessions/{id}/deeplinks": {
              "post": {
                "operationId": "openDeepLink",
                "tags": [
                  "sessions"
                ],
                "summary": "Open a deep link",
                "description": "Opens a deep link; a link that needs a precondition (e.g. login) is kept as `pendingDeepLink` and completed once it holds.",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/SessionId"
                  },
                  {
                    "$ref": "#/components/parameters/IfMatch"
                  },
                  {
                    "$ref": "#/components/parameters/IdempotencyKey"
                  },
                  {
                    "$ref": "#/components/parameters/Prefer"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/DeepLinkRequest"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Applied: the new state document with `result`.",
                    "headers": {
                      "ETag": {
                        "$ref": "#/components/headers/ETag"
                      },
                      "Idempotent-Replayed": {
                        "$ref": "#/components/headers/IdempotentReplayed"
                      },
                      "Preference-Applied": {
                        "$ref": "#/components/headers/PreferenceApplied"
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/ChangeDocument"
                            },
                            {
                              "$ref": "#/components/schemas/SummaryDocument"
                            }
                          ]
                        }
                      }
                    },
                    "links": {
                      "GetSession": {
                        "operationId": "getSession",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "GetSessionIfNoneMatch": {
                        "operationId": "getSession",
                        "parameters": {
                          "id": "$response.body#/session",
                          "header.If-None-Match": "$response.header.ETag"
                        }
                      },
                      "DeleteSession": {
                        "operationId": "deleteSession",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "PostTransitions": {
                        "operationId": "postTransitions",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "PostTransitionsIfMatch": {
                        "operationId": "postTransitions",
                        "parameters": {
                          "id": "$response.body#/session",
                          "header.If-Match": "$response.header.ETag"
                        }
                      },
                      "PostEvent": {
                        "operationId": "postEvent",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "OpenDeepLink": {
                        "operationId": "openDeepLink",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      },
                      "GetHistory": {
                        "operationId": "getHistory",
                        "parameters": {
                          "id": "$response.body#/session"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  },
                  "412": {
                    "$ref": "#/components/responses/PreconditionFailed"
                  },
                  "413": {
                    "$ref": "#/components/responses/ContentTooLarge"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  },
                  "415": {
                    "$ref": "#/components/responses/UnsupportedMediaType"
                  },
                  "422": {
                    "$ref": "#/components/responses/UnprocessableContent"
                  }
                }
              }
            },
            "/api/sessions/{id}/stream": {
              "get": {
                "operationId": "streamSession",
                "tags": [
                  "sessions"
                ],
                "summary": "Live state (Server-Sent Events)",
                "description": "An event stream: the current state at once, then one event per committed change (`event: state`, `id:` the version, `data:` the state document). Comments keep it alive.",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/SessionId"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The stream; held open until the client or the session ends.",
                    "headers": {
                      "X-Session": {
                        "description": "The session id.",
                        "required": true,
                        "schema": {
                          "$ref": "#/components/schemas/SessionId"
                        }
                      }
                    },
                    "content": {
                      "text/event-stream": {
                        "schema": {
                          "$ref": "#/components/schemas/StateEvent"
                        },
                        "example": "id: 0\nevent: state\ndata: {\"session\":\"…\",\"version\":0,…}\n\n"
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "503": {
                    "description": "Too many open streams, or the server is stopping (from the HTTP layer).",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "$ref": "#/components/schemas/Problem"
                        }
                      }
                    }
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  }
                }
              }
            },
            "/api/sessions/{id}/history": {
              "get": {
                "operationId": "getHistory",
                "tags": [
                  "sessions"
                ],
                "summary": "Committed changes",
                "description": "The latest committed changes (at most the server's history limit), oldest first.",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/SessionId"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The history.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/History"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  }
                }
              }
            },
            "/api/catalog": {
              "get": {
                "operationId": "getCatalog",
                "tags": [
                  "meta"
                ],
                "summary": "Coordinator types and routes of an app",
                "parameters": [
                  {
                    "name": "app",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string"
                    },
                    "description": "The app (default: the server's first app)."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The catalog.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Catalog"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No app of that name (`choices` lists the apps).",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "$ref": "#/components/schemas/APIProblem"
                        }
                      }
                    }
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  }
                }
              }
            },
            "/api/openapi.json": {
              "get": {
                "operationId": "getOpenAPI",
                "tags": [
                  "meta"
                ],
                "summary": "This document",
                "responses": {
                  "200": {
                    "description": "The OpenAPI document.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "openapi",
                            "paths"
                          ]
                        }
                      }
                    }
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  }
                }
              }
            },
            "/healthz": {
              "get": {
                "operationId": "getHealth",
                "tags": [
                  "meta"
                ],
                "summary": "Liveness",
                "responses": {
                  "200": {
                    "description": "Serving.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Health"
                        }
                      }
                    }
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  }
                }
              }
            },
            "/metrics": {
              "get": {
                "operationId": "getMetrics",
                "tags": [
                  "meta"
                ],
                "summary": "Prometheus metrics",
                "responses": {
                  "200": {
                    "description": "The Prometheus text exposition.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "405": {
                    "$ref": "#/components/responses/MethodNotAllowed"
                  },
                  "414": {
                    "$ref": "#/components/responses/URITooLong"
                  }
                }
              }
            }
          },
          "components": {
            "schemas": {
              "SessionId": {
                "type": "string",
                "pattern": "^[0-9a-f]{32}$",
                "description": "128 random bits as 32 lowercase hex digits.",
                "examples": [
                  "3f0c1b7e9a5d4c2e8b6a1f0e2d3c4b5a"
                ]
              },
              "Version": {
                "type": "integer",
                "minimum": 0,
                "description": "The session's version: 0 at creation, +1 for every committed change."
              },
              "StateDocument": {
                "type": "object",
                "description": "The whole navigation state of a session (docs/state-document.md).",
                "required": [
                  "session",
                  "version",
                  "visible",
                  "tree",
                  "nextId"
                ],
                "properties": {
                  "session": {
                    "$ref": "#/components/schemas/SessionId"
                  },
                  "version": {
                    "$ref": "#/components/schemas/Version"
                  },
                  "visible": {
                    "$ref": "#/components/schemas/Visible"
                  },
                  "tree": {
                    "$ref": "#/components/schemas/Node"
                  },
                  "pendingDeepLink": {
                    "type": "string",
                    "description": "A deep link waiting for a precondition (e.g. login)."
                  },
                  "nextId": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "The number the next node or item id will use."
                  },
                  "result": {
                    "$ref": "#/components/schemas/ChangeResult"
                  }
                },
                "additionalProperties": false
              },
              "ChangeDocument": {
                "description": "The state document after a change, with `result` saying what the change did.",
                "allOf": [
                  {
                    "$ref": "#/components/schemas/StateDocument"
                  },
                  {
                    "required": [
                      "result"
                    ]
                  }
                ]
              },
              "ChangeResult": {
                "type": "object",
                "description": "Transitions: `coordinator` (node id where the chain ended) and `type`; events: `handledBy` and `type`; deep links: `deepLink` (`opened`, or `pending` until a precondition holds).",
                "properties": {
                  "coordinator": {
                    "type": "string"
                  },
                  "type": {
                    "type": "string"
                  },
                  "handledBy": {
                    "type": "string"
                  },
                  "deepLink": {
                    "type": "string",
                    "enum": [
                      "opened",
                      "pending"
                    ]
                  }
                },
                "additionalProperties": false
              },
              "Visible": {
                "type": "object",
                "required": [
                  "path"
                ],
                "properties": {
                  "path": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    },
                    "description": "Route names from the root coordinator down to the top-most visible screen."
                  },
                  "coordinator": {
                    "type": "string",
                    "description": "Node id of the coordinator owning the visible screen."
                  },
                  "item": {
                    "type": "string",
                    "description": "Entry id of the visible screen."
                  },
                  "screen": {
                    "$ref": "#/components/schemas/Screen"
                  }
                },
                "dependentRequired": {
                  "screen": [
                    "coordinator",
                    "item"
                  ]
                },
                "additionalProperties": false
              },
              "Node": {
                "type": "object",
                "description": "A coordinator in the tree.",
                "required": [
                  "id",
                  "type",
                  "kind",
                  "stack"
                ],
                "properties": {
                  "id": {
                    "type": "string",
                    "examples": [
                      "n1"
                    ]
                  },
                  "type": {
                    "type": "string",
                    "description": "The coordinator's type name.",
                    "examples": [
                      "AppCoordinator"
                    ]
                  },
                  "kind": {
                    "type": "string",
                    "enum": [
                      "root",
                      "navigation",
                      "tab"
                    ]
                  },
                  "root": {
                    "$ref": "#/components/schemas/Entry"
                  },
                  "stack": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Entry"
                    },
                    "description": "Items above the root (pushes and presentations), bottom first."
                  },
                  "tabs": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Entry"
                    }
                  },
                  "selectedTab": {
                    "type": "string",
                    "description": "The selected tab's route name."
                  },
                  "selectedTabId": {
                    "type": "string",
                    "description": "The selected tab's entry id."
                  },
                  "alert": {
                    "$ref": "#/components/schemas/Alert"
                  },
                  "decoration": {
                    "$ref": "#/components/schemas/Decoration"
                  }
                },
                "additionalProperties": false
              },
              "Entry": {
                "type": "object",
                "description": "A root entry, a tab or a stack item: a screen or a nested coordinator.",
                "required": [
                  "id",
                  "route"
                ],
                "properties": {
                  "id": {
                    "type": "string",
                    "examples": [
                      "i4"
                    ]
                  },
                  "route": {
                    "type": "string"
                  },
                  "input": {
                    "description": "The route's input as JSON (absent for routes without input)."
                  },
                  "presentation": {
                    "type": "string",
                    "enum": [
                      "push",
                      "modal",
                      "fullScreen"
                    ]
                  },
                  "animated": {
                    "type": "boolean"
                  },
                  "dismissible": {
                    "type": "boolean"
                  },
                  "tabItem": {
                    "$ref": "#/components/schemas/TabItem"
                  },
                  "screen": {
                    "$ref": "#/components/schemas/Screen"
                  },
                  "coordinator": {
                    "$ref": "#/components/schemas/Node"
                  }
                },
                "dependentRequired": {
                  "presentation": [
                    "animated",
                    "dismissible"
                  ]
                },
                "oneOf": [
                  {
                    "required": [
                      "screen"
                    ]
                  },
                  {
                    "required": [
                      "coordinator"
                    ]
                  }
                ],
                "additionalProperties": false
              },
              "TabItem": {
                "type": "object",
                "required": [
                  "title",
                  "icon"
                ],
                "properties": {
                  "title": {
                    "type": "string"
                  },
                  "icon": {
                    "type": "string"
                  },
                  "badge": {
                    "type": "string"
                  }
                },
                "additionalProperties": false
              },
              "Alert": {
                "type": "object",
                "required": [
                  "title",
                  "actions"
                ],
                "properties": {
                  "title": {
                    "type": "string"
                  },
                  "message": {
                    "type": "string"
                  },
                  "actions": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/AlertActionState"
                    }
                  }
                },
                "additionalProperties": false
              },
              "AlertActionState": {
                "type": "object",
                "required": [
                  "title",
                  "role"
                ],
                "properties": {
                  "title": {
                    "type": "string"
                  },
                  "role": {
                    "type": "string",
                    "enum": [
                      "default",
                      "cancel",
                      "destructive"
                    ]
                  },
                  "event": {
                    "type": "string"
                  },
                  "payload": {
                    "description": "Any JSON value."
                  }
                },
                "additionalProperties": false
              },
              "Decoration": {
                "type": "object",
                "description": "Whatever the coordinator's `customize` set.",
                "properties": {
                  "title": {
                    "type": "string"
                  },
                  "navigationBarHidden": {
                    "type": "boolean"
                  },
                  "tint": {
                    "type": "string"
                  },
                  "tabBarStyle": {
                    "type": "string"
                  },
                  "badges": {
                    "type": "object",
                    "additionalProperties": {
                      "type": "string"
                    }
                  }
                },
                "additionalProperties": false
              },
              "Screen": {
                "type": "object",
                "required": [
                  "title",
                  "content"
                ],
                "properties": {
                  "title": {
                    "type": "string"
                  },
                  "background": {
                    "type": "string"
                  },
                  "content": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Element"
                    }
                  }
                },
                "additionalProperties": false
              },
              "Element": {
                "description": "One screen element, by `type`.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/TextElement"
                  },
                  {
                    "$ref": "#/components/schemas/ImageElement"
                  },
                  {
                    "$ref": "#/components/schemas/TextFieldElement"
                  },
                  {
                    "$ref": "#/components/schemas/ToggleElement"
                  },
                  {
                    "$ref": "#/components/schemas/ButtonElement"
                  },
                  {
                    "$ref": "#/components/schemas/ListElement"
                  }
                ],
                "discriminator": {
                  "propertyName": "type",
                  "mapping": {
                    "text": "#/components/schemas/TextElement",
                    "image": "#/components/schemas/ImageElement",
                    "textField": "#/components/schemas/TextFieldElement",
                    "toggle": "#/components/schemas/ToggleElement",
                    "button": "#/components/schemas/ButtonElement",
                    "list": "#/components/schemas/ListElement"
                  }
                }
              },
              "TextElement": {
                "type": "object",
                "required": [
                  "type",
                  "text",
                  "style"
                ],
                "properties": {
                  "type": {
                    "const": "text"
                  },
                  "text": {
                    "type": "string"
                  },
                  "style": {
                    "type": "string",
                    "enum": [
                      "title",
                      "headline",
                      "body",
                      "caption"
                    ]
                  }
                },
                "additionalProperties": false
              },
              "ImageElement": {
                "type": "object",
                "required": [
                  "type",
                  "systemName"
                ],
                "properties": {
                  "type": {
                    "const": "image"
                  },
                  "systemName": {
                    "type": "string"
                  },
                  "color": {
                    "type": "string"
                  }
                },
                "additionalProperties": false
              },
              "TextFieldElement": {
                "type": "object",
                "required": [
                  "type",
                  "id",
                  "label",
                  "placeholder",
                  "value",
                  "secure"
                ],
                "properties": {
                  "type": {
                    "const": "textField"
                  },
                  "id": {
                    "type": "string"
                  },
                  "label": {
                    "type": "string"
                  },
                  "placeholder": {
                    "type": "string"
                  },
                  "value": {
                    "type": "string"
                  },
                  "secure": {
                    "type": "boolean"
                  }
                },
                "additionalProperties": false
              },
              "ToggleElement": {
                "type": "object",
                "required": [
                  "type",
                  "id",
                  "title",
                  "isOn",
                  "action"
                ],
                "properties": {
                  "type": {
                    "const": "toggle"
                  },
                  "id": {
                    "type": "string"
                  },
                  "title": {
                    "type": "string"
                  },
                  "isOn": {
                    "type": "boolean"
                  },
                  "action": {
                    "$ref": "#/components/schemas/Action"
                  }
                },
                "additionalProperties": false
              },
              "ButtonElement": {
                "type": "object",
                "required": [
                  "type",
                  "title",
                  "role",
                  "disabled",
                  "action"
                ],
                "properties": {
                  "type": {
                    "const": "button"
                  },
                  "title": {
                    "type": "string"
                  },
                  "role": {
                    "type": "string",
                    "enum": [
                      "primary",
                      "secondary",
                      "destructive"
                    ]
                  },
                  "disabled": {
                    "type": "boolean"
                  },
                  "action": {
                    "$ref": "#/components/schemas/Action"
                  }
                },
                "additionalProperties": false
              },
              "ListElement": {
                "type": "object",
                "required": [
                  "type",
                  "rows"
                ],
                "properties": {
                  "type": {
                    "const": "list"
                  },
                  "rows": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/ListRow"
                    }
                  }
                },
                "additionalProperties": false
              },
              "ListRow": {
                "type": "object",
                "required": [
                  "id",
                  "title"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "title": {
                    "type": "string"
                  },
                  "subtitle": {
                    "type": "string"
                  },
                  "icon": {
                    "type": "string"
                  },
                  "badge": {
                    "type": "string"
                  },
                  "action": {
                    "$ref": "#/components/schemas/Action"
                  }
                },
                "additionalProperties": false
              },
              "Action": {
                "description": "What a control does: a transition (post it to `.../transitions`) or a flow event (post it to `.../events`, with `fields` turned into an object of the named fields' values).",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/TransitionAction"
                  },
                  {
                    "$ref": "#/components/schemas/EventAction"
                  }
                ],
                "discriminator": {
                  "propertyName": "type",
                  "mapping": {
                    "transition": "#/components/schemas/TransitionAction",
                    "event": "#/components/schemas/EventAction"
                  }
                }
              },
              "TransitionAction": {
                "type": "object",
                "required": [
                  "type",
                  "coordinator",
                  "steps"
                ],
                "properties": {
                  "type": {
                    "const": "transition"
                  },
                  "coordinator": {
                    "type": "string"
                  },
                  "steps": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/StepState"
                    }
                  }
                },
                "additionalProperties": false
              },
              "EventAction": {
                "type": "object",
                "required": [
                  "type",
                  "from",
                  "name",
                  "payload",
                  "fields"
                ],
                "properties": {
                  "type": {
                    "const": "event"
                  },
                  "from": {
                    "type": "string"
                  },
                  "name": {
                    "type": "string"
                  },
                  "payload": {
                    "description": "Any JSON value."
                  },
                  "fields": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  }
                },
                "additionalProperties": false
              },
              "StepState": {
                "type": "object",
                "description": "A step as the server writes it (in a screen's transition action).",
                "required": [
                  "action"
                ],
                "properties": {
                  "action": {
                    "$ref": "#/components/schemas/StepAction"
                  },
                  "route": {
                    "type": "string"
                  },
                  "input": {
                    "description": "Any JSON value."
                  },
                  "animated": {
                    "type": "boolean"
                  },
                  "presentation": {
                    "type": "string",
                    "enum": [
                      "push",
                      "modal",
                      "fullScreen"
                    ]
                  },
                  "match": {
                    "type": "string",
                    "enum": [
                      "last",
                      "first"
                    ]
                  },
                  "item": {
                    "type": "string"
                  },
                  "routes": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "route"
                      ],
                      "properties": {
                        "route": {
                          "type": "string"
                        },
                        "input": {
                          "description": "Any JSON value."
                        }
                      },
                      "additionalProperties": false
                    }
                  },
                  "title": {
                    "type": "string"
                  },
                  "message": {
                    "type": "string"
                  },
                  "actions": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/AlertActionState"
                    }
                  },
                  "choice": {
                    "type": "integer"
                  }
                },
                "additionalProperties": false
              },
              "StepAction": {
                "type": "string",
                "enum": [
                  "root",
                  "hasRoot",
                  "route",
                  "show",
                  "push",
                  "pushStack",
                  "present",
                  "pop",
                  "popItem",
                  "popTo",
                  "focusFirst",
                  "focus",
                  "popToRoot",
                  "child",
                  "dismiss",
                  "dismissCoordinator",
                  "addTab",
                  "removeTab",
                  "presentAlert",
                  "respondToAlert",
                  "back",
                  "dismissModal",
                  "selectTab"
                ],
                "description": "The operation a step names (docs/state-document.md, Steps)."
              },
              "Step": {
                "type": "object",
                "description": "One step; members an action does not use are ignored.",
                "required": [
                  "action"
                ],
                "properties": {
                  "action": {
                    "$ref": "#/components/schemas/StepAction"
                  },
                  "route": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "A route name of the coordinator the step applies to."
                  },
                  "input": {
                    "description": "The route's input as JSON."
                  },
                  "animated": {
                    "type": [
                      "boolean",
                      "null"
                    ],
                    "description": "Default true."
                  },
                  "presentation": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "enum": [
                      "push",
                      "modal",
                      "fullScreen"
                    ],
                    "description": "For `present`: `modal` or `fullScreen`."
                  },
                  "match": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "enum": [
                      "last",
                      "first"
                    ],
                    "description": "For `popTo` (default `last`)."
                  },
                  "item": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "An item id, for `popItem` and `removeTab`."
                  },
                  "routes": {
                    "type": [
                      "array",
                      "null"
                    ],
                    "items": {
                      "$ref": "#/components/schemas/RouteReference"
                    },
                    "description": "For `pushStack`."
                  },
                  "title": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "For `presentAlert`."
                  },
                  "message": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "For `presentAlert`."
                  },
                  "actions": {
                    "type": [
                      "array",
                      "null"
                    ],
                    "items": {
                      "$ref": "#/components/schemas/AlertActionRequest"
                    },
                    "description": "For `presentAlert`."
                  },
                  "choice": {
                    "type": [
                      "integer",
                      "null"
                    ],
                    "description": "For `respondToAlert`: the index of the chosen action."
                  }
                },
                "examples": [
                  {
                    "action": "push",
                    "route": "todo",
                    "input": "buy-milk"
                  },
                  {
                    "action": "back"
                  },
                  {
                    "action": "selectTab",
                    "route": "todos"
                  }
                ]
              },
              "RouteReference": {
                "type": "object",
                "required": [
                  "route"
                ],
                "properties": {
                  "route": {
                    "type": "string"
                  },
                  "input": {
                    "description": "The route's input as JSON."
                  }
                }
              },
              "AlertActionRequest": {
                "type": "object",
                "required": [
                  "title"
                ],
                "properties": {
                  "title": {
                    "type": "string"
                  },
                  "role": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "enum": [
                      "default",
                      "cancel",
                      "destructive"
                    ]
                  },
                  "event": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "payload": {
                    "description": "The event payload."
                  }
                }
              },
              "TransitionRequest": {
                "description": "One step, or a chain `{coordinator?, steps, expectedVersion?}`. A chain is atomic.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/TransitionChain"
                  },
                  {
                    "$ref": "#/components/schemas/SingleStepTransition"
                  }
                ],
                "examples": [
                  {
                    "action": "push",
                    "route": "todo",
                    "input": "42"
                  },
                  {
                    "coordinator": "n5",
                    "steps": [
                      {
                        "action": "popToRoot"
                      },
                      {
                        "action": "route",
                        "route": "todo",
                        "input": "42"
                      }
                    ],
                    "expectedVersion": 7
                  }
                ]
              },
              "TransitionChain": {
                "type": "object",
                "required": [
                  "steps"
                ],
                "properties": {
                  "coordinator": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "Node id (`n5`) or coordinator type name (the one nearest the visible screen) where the chain starts; default: the root coordinator."
                  },
                  "steps": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                      "$ref": "#/components/schemas/Step"
                    }
                  },
                  "expectedVersion": {
                    "type": [
                      "integer",
                      "null"
                    ],
                    "minimum": 0,
                    "description": "Apply only if the session is at this version (else 412)."
                  }
                }
              },
              "SingleStepTransition": {
                "type": "object",
                "required": [
                  "action"
                ],
                "properties": {
                  "action": {
                    "$ref": "#/components/schemas/StepAction"
                  },
                  "route": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "A route name of the coordinator the step applies to."
                  },
                  "input": {
                    "description": "The route's input as JSON."
                  },
                  "animated": {
                    "type": [
                      "boolean",
                      "null"
                    ],
                    "description": "Default true."
                  },
                  "presentation": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "enum": [
                      "push",
                      "modal",
                      "fullScreen"
                    ],
                    "description": "For `present`: `modal` or `fullScreen`."
                  },
                  "match": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "enum": [
                      "last",
                      "first"
                    ],
                    "description": "For `popTo` (default `last`)."
                  },
                  "item": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "An item id, for `popItem` and `removeTab`."
                  },
                  "routes": {
                    "type": [
                      "array",
                      "null"
                    ],
                    "items": {
                      "$ref": "#/components/schemas/RouteReference"
                    },
                    "description": "For `pushStack`."
                  },
                  "title": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "For `presentAlert`."
                  },
                  "message": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "For `presentAlert`."
                  },
                  "actions": {
                    "type": [
                      "array",
                      "null"
                    ],
                    "items": {
                      "$ref": "#/components/schemas/AlertActionRequest"
                    },
                    "description": "For `presentAlert`."
                  },
                  "choice": {
                    "type": [
                      "integer",
                      "null"
                    ],
                    "description": "For `respondToAlert`: the index of the chosen action."
                  },
                  "coordinator": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "Node id (`n5`) or coordinator type name (the one nearest the visible screen) where the chain starts; default: the root coordinator."
                  },
                  "expectedVersion": {
                    "type": [
                      "integer",
                      "null"
                    ],
                    "minimum": 0,
                    "description": "Apply only if the session is at this version (else 412)."
                  }
                },
                "not": {
                  "required": [
                    "steps"
                  ]
                }
              },
              "EventRequest": {
                "type": "object",
                "required": [
                  "name"
                ],
                "properties": {
                  "from": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "Item or node id sending the event; default: the visible item."
                  },
                  "name": {
                    "type": "string",
                    "description": "The event name, e.g. `login`."
                  },
                  "payload": {
                    "description": "Data sent with the event."
                  },
                  "fields": {
                    "type": [
                      "object",
                      "null"
                    ],
                    "additionalProperties": {
                      "type": "string"
                    },
                    "description": "Values of the screen's fields, by field id."
                  },
                  "expectedVersion": {
                    "type": [
                      "integer",
                      "null"
                    ],
                    "minimum": 0,
                    "description": "Apply only if the session is at this version (else 412)."
                  }
                },
                "examples": [
                  {
                    "from": "i9",
                    "name": "login",
                    "payload": null,
                    "fields": {
                      "username": "ann",
                      "password": "pw"
                    }
                  }
                ]
              },
              "DeepLinkRequest": {
                "type": "object",
                "required": [
                  "url"
                ],
                "properties": {
                  "url": {
                    "type": "string",
                    "examples": [
                      "jumper://io.idevs/todo/buy-milk"
                    ]
                  },
                  "expectedVersion": {
                    "type": [
                      "integer",
                      "null"
                    ],
                    "minimum": 0,
                    "description": "Apply only if the session is at this version (else 412)."
                  }
                },
                "examples": [
                  {
                    "url": "jumper://io.idevs/settings"
                  }
                ]
              },
              "CreateSessionRequest": {
                "type": "object",
                "properties": {
                  "app": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "The app to run; default: the server's first app."
                  }
                },
                "examples": [
                  {
                    "app": "todo"
                  },
                  {}
                ]
              },
              "StateEvent": {
                "type": "object",
                "description": "One Server-Sent Event of `GET /api/sessions/{id}/stream`.",
                "required": [
                  "event",
                  "id",
                  "data"
                ],
                "properties": {
                  "event": {
                    "const": "state"
                  },
                  "id": {
                    "type": "string",
                    "pattern": "^[0-9]+$",
                    "description": "The version."
                  },
                  "data": {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": {
                      "$ref": "#/components/schemas/StateDocument"
                    }
                  }
                }
              },
              "History": {
                "type": "object",
                "required": [
                  "session",
                  "version",
                  "entries"
                ],
                "properties": {
                  "session": {
                    "$ref": "#/components/schemas/SessionId"
                  },
                  "version": {
                    "$ref": "#/components/schemas/Version"
                  },
                  "entries": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/HistoryEntry"
                    },
                    "description": "Oldest first."
                  }
                },
                "additionalProperties": false
              },
              "HistoryEntry": {
                "type": "object",
                "required": [
                  "version",
                  "time",
                  "source",
                  "request",
                  "visiblePath"
                ],
                "properties": {
                  "version": {
                    "$ref": "#/components/schemas/Version"
                  },
                  "time": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "source": {
                    "type": "string",
                    "enum": [
                      "api",
                      "deeplink",
                      "event",
                      "gesture",
                      "session"
                    ]
                  },
                  "request": {
                    "description": "The request body that caused the change. A body larger than the server's limit (default 4 KiB) is kept as `{\"omitted\": \"…\", \"bytes\": n}` instead. The history keeps a bounded number of bytes per session (default 64 KiB): the oldest entries go first."
                  },
                  "visiblePath": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  }
                },
                "additionalProperties": false
              },
              "Catalog": {
                "type": "object",
                "required": [
                  "app",
                  "coordinators",
                  "deepLinks"
                ],
                "properties": {
                  "app": {
                    "type": "string"
                  },
                  "coordinators": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/CatalogCoordinator"
                    }
                  },
                  "deepLinks": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    },
                    "description": "Deep link patterns."
                  }
                },
                "additionalProperties": false
              },
              "CatalogCoordinator": {
                "type": "object",
                "required": [
                  "type",
                  "kind",
                  "routes"
                ],
                "properties": {
                  "type": {
                    "type": "string"
                  },
                  "kind": {
                    "type": "string",
                    "enum": [
                      "root",
                      "navigation",
                      "tab"
                    ]
                  },
                  "routes": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/CatalogRoute"
                    }
                  }
                },
                "additionalProperties": false
              },
              "CatalogRoute": {
                "type": "object",
                "required": [
                  "name",
                  "kind",
                  "output",
                  "outputKind",
                  "inputType",
                  "input",
                  "explored"
                ],
                "properties": {
                  "name": {
                    "type": "string"
                  },
                  "kind": {
                    "type": "string",
                    "enum": [
                      "root",
                      "route",
                      "tab"
                    ]
                  },
                  "output": {
                    "type": "string"
                  },
                  "outputKind": {
                    "type": "string",
                    "enum": [
                      "screen",
                      "coordinator"
                    ]
                  },
                  "presentation": {
                    "type": "string",
                    "enum": [
                      "push",
                      "modal",
                      "fullScreen"
                    ]
                  },
                  "dismissible": {
                    "type": "boolean"
                  },
                  "inputType": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "input": {
                    "type": [
                      "object",
                      "null"
                    ],
                    "description": "A JSON Schema of the input, null without input."
                  },
                  "explored": {
                    "type": "boolean"
                  }
                },
                "additionalProperties": false
              },
              "Health": {
                "type": "object",
                "required": [
                  "status",
                  "sessions"
                ],
                "properties": {
                  "status": {
                    "const": "ok"
                  },
                  "sessions": {
                    "type": "integer",
                    "minimum": 0
                  }
                },
                "additionalProperties": false
              },
              "Problem": {
                "type": "object",
                "description": "RFC 9457 problem details. API errors always carry `code`; errors from the HTTP layer (413, 414, malformed framing, too many streams) have no `code`.",
                "required": [
                  "type",
                  "title",
                  "status",
                  "detail"
                ],
                "properties": {
                  "type": {
                    "type": "string",
                    "format": "uri-reference",
                    "examples": [
                      "/problems/cannotPopRoot"
                    ]
                  },
                  "title": {
                    "type": "string"
                  },
                  "status": {
                    "type": "integer",
                    "minimum": 400,
                    "maximum": 599
                  },
                  "detail": {
                    "type": "string"
                  },
                  "code": {
                    "type": "string",
                    "description": "A stable error code, e.g. `cannotPopRoot`, `unknownRoute`."
                  },
                  "choices": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    },
                    "description": "The valid values, when the error is about an unknown name."
                  },
                  "currentVersion": {
                    "$ref": "#/components/schemas/Version"
                  },
                  "state": {
                    "$ref": "#/components/schemas/StateDocument"
                  }
                }
              },
              "APIProblem": {
                "allOf": [
                  {
                    "$ref": "#/components/schemas/Problem"
                  },
                  {
                    "required": [
                      "code"
                    ]
                  }
                ]
              },
              "StaleVersionProblem": {
                "allOf": [
                  {
                    "$ref": "#/components/schemas/APIProblem"
                  },
                  {
                    "required": [
                      "currentVersion",
                      "state"
                    ],
                    "properties": {
                      "code": {
                        "const": "staleVersion"
                      },
                      "status": {
                        "const": 412
                      }
                    }
                  }
                ]
              },
              "SummaryDocument": {
                "description": "The short form of a change's answer (`Prefer: return=minimal`): where the change landed, without the tree or rendered screens.",
                "type": "object",
                "required": [
                  "session",
                  "version",
                  "visible",
                  "result"
                ],
                "properties": {
                  "session": {
                    "$ref": "#/components/schemas/SessionId"
                  },
                  "version": {
                    "$ref": "#/components/schemas/Version"
                  },
                  "visible": {
                    "type": "object",
                    "required": [
                      "path"
                    ],
                    "properties": {
                      "path": {
                        "type": "array",
                        "items": {
                          "type": "string"
                        }
                      },
                      "coordinator": {
                        "type": "string"
                      },
                      "item": {
                        "type": "string"
                      }
                    },
                    "additionalProperties": false
                  },
                  "pendingDeepLink": {
                    "type": "string"
                  },
                  "result": {
                    "$ref": "#/components/schemas/ChangeResult"
                  }
                },
                "additionalProperties": false
              }
            },
            "responses": {
              "BadRequest": {
                "description": "Malformed JSON or body shape, unknown action or route name (`choices`), bad `If-Match`.",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/APIProblem"
                    }
                  }
                }
              },
              "NotFound": {
                "description": "Unknown session (it may have expired), coordinator, item; no deep link matched.",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/APIProblem"
                    }
                  }
                }
              },
              "MethodNotAllowed": {
                "description": "The method is not allowed on this path; `Allow` lists those that are.",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/APIProblem"
                    }
                  }
                },
                "headers": {
                  "Allow": {
                    "$ref": "#/components/headers/Allow"
                  }
                }
              },
              "Conflict": {
                "description": "A navigation rule refused the step (pop at root, route not in stack, not dismissible, veto, …), or the change would make the state document larger than the session's limit (`code` `documentTooLarge`, with `limit`); nothing was applied.",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/APIProblem"
                    }
                  }
                }
              },
              "PreconditionFailed": {
                "description": "`If-Match` / `expectedVersion` names another version; nothing was applied. The body carries the current version and state.",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/StaleVersionProblem"
                    }
                  }
                },
                "headers": {
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  }
                }
              },
              "ContentTooLarge": {
                "description": "The body is larger than the server accepts (from the HTTP layer).",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/Problem"
                    }
                  }
                }
              },
              "URITooLong": {
                "description": "The request target is too long (from the HTTP layer).",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/Problem"
                    }
                  }
                }
              },
              "UnsupportedMediaType": {
                "description": "The body is not `application/json`.",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/APIProblem"
                    }
                  }
                }
              },
              "UnprocessableContent": {
                "description": "The input does not decode for that route; a flow event nobody handled; an `Idempotency-Key` reused with a different request; or a string in the body is longer than the field limit (`code` `fieldTooLong`, with `limit`).",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/APIProblem"
                    }
                  }
                }
              },
              "Forbidden": {
                "description": "A change sent by a page of another site (`Sec-Fetch-Site: cross-site`, or an `Origin` that is neither this host nor the configured CORS origin): `code` is `crossSiteRequest`; nothing was applied.",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "$ref": "#/components/schemas/APIProblem"
                    }
                  }
                }
              }
            },
            "parameters": {
              "SessionId": {
                "name": "id",
                "in": "path",
                "required": true,
                "schema": {
                  "$ref": "#/components/schemas/SessionId"
                },
                "description": "The session id from `POST /api/sessions`."
              },
              "IfMatch": {
                "name": "If-Match",
                "in": "header",
                "required": false,
                "description": "Apply only if the session is at this version: `\"7\"` (the ETag) or `*`. A list of ETags matches any of them; an empty value is an empty list (no precondition). Overrides `expectedVersion`.",
                "schema": {
                  "type": "string",
                  "pattern": "^[ \\t]*(\\*|\"[0-9]{1,15}\"([ \\t]*,[ \\t]*\"[0-9]{1,15}\")*)?[ \\t]*$"
                }
              },
              "IfNoneMatch": {
                "name": "If-None-Match",
                "in": "header",
                "required": false,
                "description": "The ETag the client has; the same version answers 304 without a body.",
                "schema": {
                  "type": "string"
                }
              },
              "IdempotencyKey": {
                "name": "Idempotency-Key",
                "in": "header",
                "required": false,
                "description": "A unique key per intended change: retrying the same request with the same key replays the first answer (`Idempotent-Replayed: true`) instead of applying it again; the same key with a different request is 422.",
                "schema": {
                  "type": "string"
                }
              },
              "Prefer": {
                "name": "Prefer",
                "in": "header",
                "required": false,
                "description": "`return=minimal` (RFC 7240) answers with the short `SummaryDocument` (no tree, no screens) instead of the full state document, with `Preference-Applied: return=minimal`; for clients that follow the stream. Other preferences are ignored.",
                "schema": {
                  "type": "string"
                }
              }
            },
            "headers": {
              "ETag": {
                "description": "The session's version in quotes, e.g. `\"7\"`.",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^\"[0-9]+\"$"
                }
              },
              "Location": {
                "description": "The new session's URL.",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^/api/sessions/[0-9a-f]{32}$"
                }
              },
              "Allow": {
                "description": "The methods the path answers.",
                "required": true,
                "schema": {
                  "type": "string"
                }
              },
              "RetryAfter": {
                "description": "Seconds to wait before retrying.",
                "required": true,
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              },
              "IdempotentReplayed": {
                "description": "Present when the answer is a replay for a repeated `Idempotency-Key`.",
                "schema": {
                  "type": "string",
                  "enum": [
                    "true"
                  ]
                }
              },
              "PreferenceApplied": {
                "description": "`return=minimal` when the short form was sent.",
                "required": false,
                "schema": {
                  "type": "string",
                  "enum": [
                    "return=minimal"
                  ]
                }
              }
            }
          }
        }
        """#
}
