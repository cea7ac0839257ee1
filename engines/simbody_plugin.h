/* Simbody behind a C interface, in a plugin of its own (engine_plugin.hpp says why: Simbody's three
 * libraries cost every process that links them ~12 ms at start; docs/engines.md, "Plugins").
 *
 * Simbody 3.7's headers do not compile as C++20 (GCC 12 finds its ContactGeometryTypeId comparisons
 * ambiguous under C++20's rewritten operator==), so the plugin, simbody_plugin.cpp, is compiled as
 * C++17, and this header - included by the C++20 scheme, simbody.cpp - holds only plain C types.
 * No exception crosses it: the plugin returns Simbody's message instead. */
#ifndef RIGIDBENCH_SIMBODY_PLUGIN_H
#define RIGIDBENCH_SIMBODY_PLUGIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a field or a function changes: a plugin of another version is refused. */
#define RIGIDBENCH_SIMBODY_PLUGIN_ABI 2
/* The plugin's ELF note (core/plugin_file.hpp). */
#define RIGIDBENCH_SIMBODY_PLUGIN_STR2(x) #x
#define RIGIDBENCH_SIMBODY_PLUGIN_STR(x) RIGIDBENCH_SIMBODY_PLUGIN_STR2(x)
#define RIGIDBENCH_SIMBODY_PLUGIN_NOTE "simbody-plugin " RIGIDBENCH_SIMBODY_PLUGIN_STR(RIGIDBENCH_SIMBODY_PLUGIN_ABI)

/* Simbody's integrators (SimTK::Integrator subclasses). */
enum rigidbench_simbody_method {
  RIGIDBENCH_SIMBODY_EXPLICIT_EULER,
  RIGIDBENCH_SIMBODY_SEMI_EXPLICIT_EULER,
  RIGIDBENCH_SIMBODY_SEMI_EXPLICIT_EULER2,
  RIGIDBENCH_SIMBODY_RK2,
  RIGIDBENCH_SIMBODY_RK3,
  RIGIDBENCH_SIMBODY_MERSON,
  RIGIDBENCH_SIMBODY_FELDBERG,
  RIGIDBENCH_SIMBODY_VERLET
};

/* One link: a Body::Rigid whose origin is its inboard joint (or, free, any point it moves with). */
typedef struct rigidbench_simbody_link {
  double mass;
  double centre[3];      /* centre of mass, link components, from the link's origin */
  double inertia[3][3];  /* about the link's origin, link components */
  double joint[3];       /* the link's origin when its joint is at rest: in its parent's frame from the parent's
                            origin (link 0: in the world) */
} rigidbench_simbody_link;

/* One body (links = 1) or a chain of links, link i on a Ball mobilizer at its origin in link i - 1. */
typedef struct rigidbench_simbody_body {
  int links;
  const rigidbench_simbody_link* link;
  double gravity[3];     /* world components */
  int pivot;             /* 1: link 0 on a Ball mobilizer at link[0].joint (a top, a pivoted chain); 0: free */
} rigidbench_simbody_body;

typedef struct rigidbench_simbody_model rigidbench_simbody_model;

typedef struct rigidbench_simbody_api {
  int abi;             /* RIGIDBENCH_SIMBODY_PLUGIN_ABI of the plugin (the first member: engine_plugin.hpp) */
  const char* version; /* Simbody's version, major.minor, as the library reports it */
  /* A model of the body stepped by `method`; NULL and a message in err (size n) if Simbody refuses it. */
  rigidbench_simbody_model* (*create)(const rigidbench_simbody_body* body, int method, char* err, int n);
  void (*destroy)(rigidbench_simbody_model* m);
  /* Per link i: R + 9 i its rotation link -> world, row-major, omega + 3 i its angular velocity in world
   * components; x, v: link 0's origin and its velocity in the world (a free link 0 only); t0: the time.
   * 0, or nonzero and a message in err. */
  int (*reset)(rigidbench_simbody_model* m, const double* R, const double* omega, const double x[3], const double v[3],
               double t0, char* err, int n);
  /* One step of h from t (the grid's t_n); 0, or nonzero and why in err. */
  int (*step)(rigidbench_simbody_model* m, double t, double h, char* err, int n);
  /* The state, as reset takes it; 0, or nonzero and Simbody's message in err. */
  int (*read)(rigidbench_simbody_model* m, double* R, double* omega, double x[3], double v[3], char* err, int n);
  /* Realizations through the acceleration stage since the last reset (force evaluations). */
  unsigned long long (*realizations)(const rigidbench_simbody_model* m);
} rigidbench_simbody_api;

/* The one symbol the plugin exports. */
const rigidbench_simbody_api* rigidbench_simbody_plugin(void);

#ifdef __cplusplus
}
#endif

#endif
