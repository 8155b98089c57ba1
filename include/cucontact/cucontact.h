/* cuContact: CUDA-accelerated collision pipeline. Include this one header. */
#ifndef CUCONTACT_H
#define CUCONTACT_H

#include "cucontact/types.h"
#include "cucontact/model.h"
#include "cucontact/sdf.h"
#include "cucontact/contacts.h"
#include "cucontact/pipeline.h"
#include "cucontact/mjcf.h"
#include "cucontact/solver.h"

#define CUCONTACT_VERSION_MAJOR 0
#define CUCONTACT_VERSION_MINOR 1
#define CUCONTACT_VERSION_PATCH 0

#endif
