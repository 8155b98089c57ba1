/* cuContact: CUDA-accelerated collision pipeline. Include this one header. */
#ifndef CUCONTACT_H
#define CUCONTACT_H

#include "types.h"
#include "model.h"
#include "contacts.h"
#include "pipeline.h"
#include "mjcf.h"
#include "solver.h"

#define CUCONTACT_VERSION_MAJOR 0
#define CUCONTACT_VERSION_MINOR 1
#define CUCONTACT_VERSION_PATCH 0

#endif
