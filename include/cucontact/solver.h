/* cuContact: contact forces, the rigid-body step, and frame graphs. */
#ifndef CUCONTACT_SOLVER_H
#define CUCONTACT_SOLVER_H

#include "cucontact/pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_solver cc_solver;

/// How contacts become forces.
typedef enum cc_contact_model {
    /// The compliant model: smoothed penalty k h(-phi) on the signed distance,
    /// regularised Coulomb and viscous friction, Hunt-Crossley normal damping
    /// and alignment rejection, per shape cc_compliant_params. A point
    /// contact's traction [Pa] times its weight [m^2] is its force.
    CC_CONTACT_COMPLIANT = 0,
    /// The penalty model: ke, kd, kf, ka and mu of cc_material, averaged over
    /// the two shapes; forces [N] per contact.
    CC_CONTACT_PENALTY = 1
} cc_contact_model;

/// How a step advances the bodies.
typedef enum cc_integrator {
    /// Linearly implicit Euler: each contact force is linearised in the
    /// relative position and velocity at its point (stiffness and damping
    /// Jacobians), and the step solves for the velocity change per body (a
    /// 6x6 system) after the torque-free turn (see gyroscopic). Contacts between
    /// two moving bodies are split between them by their inverse inertia
    /// along the normal and coupled by implicit_sweeps Jacobi sweeps.
    /// Stable for stiff contacts at time steps far beyond the explicit
    /// limit; dissipative at those steps (first order).
    CC_INTEGRATOR_IMPLICIT = 0,
    /// Semi-implicit (symplectic) Euler: velocities from the forces at the
    /// step's start, then poses. Energy-consistent but only stable below
    /// the contact's limit, about 2 / (sqrt(k w) + c w) for stiffness k,
    /// damping c and inverse inertia w at the contact (cc_solver_report).
    CC_INTEGRATOR_EXPLICIT = 1
} cc_integrator;

typedef struct cc_solver_def {
    cc_contact_model contact_model; ///< (CC_CONTACT_COMPLIANT)
    cc_integrator integrator;       ///< (CC_INTEGRATOR_IMPLICIT)
    /// Jacobi sweeps that couple the implicit solves of two moving bodies in
    /// contact; a fixed count, so that a step is the same work every time
    /// (capture-safe and deterministic); 0..64 (4)
    int implicit_sweeps;
    /// Area each point contact stands for, compliant model [m^2]; 0 (the
    /// default) takes it from the shapes: per contact the smaller of the two
    /// shapes' point areas, a shape's being the product of the two larger
    /// half extents of its bounding box (a box resting on a face then stands
    /// on about that face's area, spread over its four points; a sphere of
    /// radius r on r^2). Planes and heightfields have no area of their own.
    float point_contact_weight;
    /// Nonzero: forces are summed per body in a fixed order (contacts sorted
    /// by body, then by row), so that with a deterministic pipeline (whose
    /// rows come in a fixed order) the step is bit-reproducible; zero sums
    /// with atomics, whose order varies on a GPU (0).
    int deterministic;
    /// Nonzero: bodies turn under the gyroscopic torque -w x (I w), taken as
    /// a torque-free turn before the rest of the step (one Newton step of
    /// backward Euler, stable at any |w| dt, gaining no energy) (1)
    int gyroscopic;
    int32_t cookie;  ///< set by cc_default_solver_def; do not touch
} cc_solver_def;

cc_solver_def cc_default_solver_def(void);

/// A solver for `model`'s bodies; allocates what a step needs once.
/// `contact_capacity` is the largest contact buffer it will be given
/// (rigid_contact_max of the pipeline, or 0 for steps without contacts).
cc_status cc_solver_create(const cc_model* model, const cc_solver_def* def, int contact_capacity,
                           cc_solver** out);
void cc_solver_destroy(cc_solver* solver);

/// The longest step cc_step takes [s].
#define CC_STEP_DT_MAX 10.0f

/// One step of length dt [s] (0 < dt <= CC_STEP_DT_MAX): contact forces from `contacts` (NULL: none) at
/// the poses of `state_in`, gravity, then the def's integrator with the
/// gyroscopic term and renormalised quaternions, written to `state_out`
/// (a different state of the same model). Static bodies keep their pose and
/// zero velocity. Speculative rows (cc_contacts_view.speculative) whose
/// points would close more than max(d, 0) within the step are arrested
/// instead: separated points meet at the surface at the step's end, touching
/// ones sink no deeper (README, "Speculative contacts"). Only enqueues work
/// on `stream`, like cc_collide, so it can be captured into a CUDA graph; on
/// the CPU it runs to completion.
cc_status cc_step(cc_solver* solver, const cc_state* state_in, cc_state* state_out,
                  const cc_contacts* contacts, float dt, cc_stream stream);

/// What the steps since the solver's creation (or the last reset) saw of
/// their own stability. Each step estimates, per contact, the largest time
/// step the explicit integrator holds: 2 / (sqrt(k w) + c w), with k and c
/// the contact's normal stiffness [N/m] and largest damping rate [N s/m]
/// and w the sum of both bodies' inverse inertias along the normal; the
/// smallest over the contacts is the step's limit. An explicit step longer
/// than its limit is counted: such a scene gains energy and explodes
/// (use CC_INTEGRATOR_IMPLICIT or a shorter dt). Kept on the device and
/// updated by the step's own kernels, so captured steps report too.
typedef struct cc_solver_report {
    int steps;             ///< steps taken
    int steps_over_limit;  ///< explicit steps whose dt exceeded their limit
    float dt_limit;        ///< smallest limit of any step [s] (INFINITY: no stiff contact yet)
    float last_dt_limit;   ///< the last step's limit [s] (INFINITY: none)
    /// Body steps that came out non-finite (an explicit step far past its
    /// limit diverges): each such body kept its pose and was stopped, so
    /// that no NaN reaches the state; shorten the step or use the implicit
    /// integrator.
    int bodies_stopped;
} cc_solver_report;

/// Waits for the device and reads the report.
cc_status cc_solver_get_report(const cc_solver* solver, cc_solver_report* out);
/// Waits for the device and starts a new report.
cc_status cc_solver_reset_report(cc_solver* solver);

/// Force and torque (about the centre of mass) [N, N m] the last step's
/// contacts applied to bodies [first, first+count) at its start, gravity
/// excluded (the implicit step's velocity change also holds their change
/// over the step); waits for the device.
cc_status cc_solver_get_body_forces(const cc_solver* solver, int first, int count, cc_vec3* force,
                                    cc_vec3* torque);

/// A captured frame: collide and `substeps` steps of `dt`, ping-ponging
/// between states[0] and states[1] and colliding before substeps 0, n, 2n, ...
/// for n = collide_every_n. The frame starts from and ends in states[0]
/// (an odd substep count ends with a copy). On CUDA it is a CUDA graph
/// (cc_frame_graph_exec gives the cudaGraphExec_t for cudaGraphLaunch); on
/// the CPU a recorded sequence that cc_frame_graph_launch replays, so host
/// code is the same on both. The graph uses the pipeline, the solver and the
/// states it was made with: destroy it before any of them. With a
/// speculating pipeline, each collide's horizon (collide_every_n * dt,
/// capped at the frame's end) is written to the pipeline's device value
/// just before it.
typedef struct cc_frame_graph cc_frame_graph;

cc_status cc_frame_graph_create(cc_pipeline* pipeline, cc_solver* solver, cc_state* states[2],
                                int substeps, int collide_every_n, float dt, cc_stream stream,
                                cc_frame_graph** out);
/// The collision sub-step scheduler: a frame of `substeps` steps of
/// frame_dt / substeps that collides at its start and then only when the
/// observed motion requires it, decided on the device. Before each substep
/// it observes the largest speed bound v of any colliding shape (|v| + |w| r,
/// r bounding the shape's points from its body's centre of mass) and counts
/// two shapes closing at 2v. A collision pass keeps every separated
/// candidate within the reserve R = the pipeline's
/// speculative_contact_gap_max, whatever the velocities (outside the
/// frame, passes keep the velocity-adapted admission), and chooses its
/// horizon once: the most substeps within R at the estimated speed (the
/// last observed one plus its last increase), at most collision_dt_max and
/// never past the frame's end. A new pass runs when that horizon expires or
/// when the travel since the last pass plus the next substep's estimate
/// would exceed R; a drop in speed never extends a horizon. On CUDA each
/// pass sits in a conditional node of the frame's graph (CUDA 12.4+); on
/// the CPU the same decision code runs and the frame branches on it. It
/// bounds travel by the speeds observed after each substep: an impulse
/// within a substep can still cross thin geometry.
typedef struct cc_frame_schedule_def {
    float frame_dt;         ///< length of a frame [s], in (0, substeps * CC_STEP_DT_MAX] (1/60)
    int substeps;           ///< solver steps per frame; even (ping-pong states), 2..4096 (10)
    /// The longest time between collision passes [s], rounded down to whole
    /// substeps and capped at the frame: at least one substep. 0 (the
    /// default): one frame.
    float collision_dt_max;
    /// Nonzero (1): on CUDA the frame is one captured graph with a
    /// conditional node per substep. 0: each launch runs the frame's work
    /// directly, the host reading every decision (on CUDA a wait per
    /// substep: for checking a captured schedule against it).
    int capture;
    int32_t cookie; ///< set by cc_default_frame_schedule_def; do not touch
} cc_frame_schedule_def;

cc_frame_schedule_def cc_default_frame_schedule_def(void);

/// A frame graph run by the scheduler. The pipeline must speculate
/// (speculative_contact_gap_max > 0), since its reserve is what a pass
/// keeps. The frame starts from and ends in states[0]. Its passes write the
/// pipeline's collision dt: after a frame it holds the last pass's horizon,
/// so set it again (cc_pipeline_set_collision_dt) before colliding
/// directly; run a pipeline's frame graphs one after another on one
/// stream. On CUDA the graph holds a conditional node with a whole
/// captured pass for every substep, so its size and capture time grow with
/// the substep count.
cc_status cc_frame_graph_create_scheduled(cc_pipeline* pipeline, cc_solver* solver, cc_state* states[2],
                                          const cc_frame_schedule_def* def, cc_stream stream,
                                          cc_frame_graph** out);

/// What the scheduler did (waits for the device).
typedef struct cc_frame_schedule {
    int passes;            ///< collision passes in the last frame
    /// Nonzero: in the last frame a substep's travel bound (2 v h), or the
    /// travel since a pass, exceeded the reserve, so shapes may have
    /// crossed what that pass did not keep. Raise the substep count or
    /// speculative_contact_gap_max.
    int interval_overflow;
    int frames;            ///< frames completed since the graph's creation
    int overflow_frames;   ///< of which with interval_overflow
    int limit;             ///< the resolved collision_dt_max, in substeps
} cc_frame_schedule;

/// The scheduler's record of the last frame. `horizons` (NULL or one per
/// substep) receives, per substep, the horizon in substeps of the pass run
/// before it, or 0; `speeds` (NULL or substeps + 1) the speed bound [m/s]
/// each decision saw, the last at the frame's end. Fails with
/// CC_ERR_INVALID_STATE for a graph made by cc_frame_graph_create.
cc_status cc_frame_graph_get_schedule(const cc_frame_graph* graph, cc_frame_schedule* out, int* horizons,
                                      float* speeds);

/// Replays one frame on `stream` (cudaGraphLaunch on CUDA).
cc_status cc_frame_graph_launch(cc_frame_graph* graph, cc_stream stream);
/// The instantiated CUDA graph (cudaGraphExec_t), or NULL on the CPU.
void* cc_frame_graph_exec(const cc_frame_graph* graph);
/// The contact buffer the frame collides into (owned by the graph).
const cc_contacts* cc_frame_graph_contacts(const cc_frame_graph* graph);
void cc_frame_graph_destroy(cc_frame_graph* graph);

#ifdef __cplusplus
}
#endif

#endif
