/* cuContact: CUDA-accelerated collision pipeline. Include this one header. */
#ifndef CUCONTACT_H
#define CUCONTACT_H

#include "include/cucontact/types.h"
#include "include/cucontact/model.h"
#include "include/cucontact/contacts.h"
#include "include/cucontact/pipeline.h"
#include "include/cucontact/mjcf.h"
#include "include/cucontact/solver.h"

#define CUCONTACT_VERSION_MAJOR 0
#define CUCONTACT_VERSION_MINOR 1
#define CUCONTACT_VERSION_PATCH 0

#endif
