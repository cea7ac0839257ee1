/* DART behind a C interface, in a plugin of its own (docs/engines.md, "DART", "Building").
 *
 * Linking libdart costs every process that links it about 15 ms at start (the dynamic loader
 * relocates DART and its dependencies), whether or not a DART scheme runs: the `rigidbench` command
 * and the test binary start hundreds of times in the test suite. DART is therefore built as a module
 * (librigidbench_dart.so) that dart.cpp loads with dlopen the first time a DART scheme is made. This
 * header is everything the two share: plain C types, so that neither side depends on the other's
 * C++ headers (DART's or rigidbench's). */
#ifndef RIGIDBENCH_DART_PLUGIN_H
#define RIGIDBENCH_DART_PLUGIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a field or a function changes: a plugin of another version is refused. */
#define RIGIDBENCH_DART_PLUGIN_ABI 2
/* The plugin's ELF note (core/plugin_file.hpp): read before dlopen, so that a library that is not
 * this plugin is refused before any of its code runs. */
#define RIGIDBENCH_DART_PLUGIN_STR2(x) #x
#define RIGIDBENCH_DART_PLUGIN_STR(x) RIGIDBENCH_DART_PLUGIN_STR2(x)
#define RIGIDBENCH_DART_PLUGIN_NOTE "dart-plugin " RIGIDBENCH_DART_PLUGIN_STR(RIGIDBENCH_DART_PLUGIN_ABI)

/* One link: a BodyNode whose origin is its inboard joint (or, free, any point it moves with). */
typedef struct rigidbench_dart_link {
  double mass;
  double centre[3];             /* centre of mass from the link's origin, link components */
  double central_inertia[3][3]; /* about the centre of mass, link components */
  double joint[3];              /* the link's origin when its joint is at rest: in its parent's frame from the
                                   parent's origin (link 0: in the world) */
} rigidbench_dart_link;

/* One body (links = 1) or a chain, link i on a BallJoint at its origin in link i - 1. */
typedef struct rigidbench_dart_body {
  int links;
  const rigidbench_dart_link* link;
  double gravity[3];            /* world components */
  int pivot;                    /* 1: link 0 on a BallJoint at link[0].joint (a top, a pivoted chain); 0: free */
} rigidbench_dart_body;

typedef struct rigidbench_dart_world rigidbench_dart_world;

typedef struct rigidbench_dart_api {
  int abi;             /* RIGIDBENCH_DART_PLUGIN_ABI of the plugin */
  const char* version; /* DART's version, as its headers give it (DART_VERSION) */
  /* A world with the body; NULL and a message in err (size n) if DART refuses it. */
  rigidbench_dart_world* (*create)(const rigidbench_dart_body* body, char* err, int n);
  void (*destroy)(rigidbench_dart_world* w);
  /* Per link i: R + 9 i its rotation link -> world, row-major, omega + 3 i its angular velocity in world
   * components; x, v: link 0's origin and its velocity in the world (a free link 0 only); t: the time. */
  void (*reset)(rigidbench_dart_world* w, const double* R, const double* omega, const double x[3], const double v[3],
                double t);
  /* One World::step of h; 0, or nonzero and a message in err. */
  int (*step)(rigidbench_dart_world* w, double h, char* err, int n);
  void (*read)(const rigidbench_dart_world* w, double* R, double* omega, double x[3], double v[3]);
} rigidbench_dart_api;

/* The one symbol the plugin exports. */
const rigidbench_dart_api* rigidbench_dart_plugin(void);

#ifdef __cplusplus
}
#endif

#endif
